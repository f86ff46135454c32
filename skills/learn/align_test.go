package learn

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// TestSimilarityWhenOneDemonstrationLacksTheElement: a click the
// accessibility tree answered for in one demonstration and not the other
// (too late, under load) is still the same step when it was made at the
// same place of the same window; elsewhere it is not.
func TestSimilarityWhenOneDemonstrationLacksTheElement(t *testing.T) {
	ok := &events.Enrichment{Kind: events.KindAX, Role: "button", Label: "OK"}
	ocr := func(label string) *events.Enrichment { return &events.Enrichment{Kind: events.KindNone, Label: label} }
	click := func(e *events.Enrichment, window string, x, y int) *events.Step {
		return &events.Step{Action: events.ActionClick, Enrichment: e, ActiveApp: "zenity", ActiveWindow: window, Cursor: []int{x, y}}
	}
	for _, tc := range []struct {
		name string
		a, b *events.Step
		want float64
	}{
		{"both resolved", click(ok, "New customer", 500, 400), click(ok, "New customer", 510, 405), 0.9},
		{"one resolved, same place", click(ok, "New customer", 500, 400), click(nil, "New customer", 510, 405), minMatch},
		{"one resolved, the other elsewhere", click(ok, "New customer", 500, 400), click(nil, "New customer", 200, 100), 0},
		{"one resolved, another window", click(ok, "New customer", 500, 400), click(nil, "Settings", 500, 400), 0},
		{"one resolved, the other's window gone", click(ok, "New customer", 500, 400), click(nil, "", 502, 401), minMatch},
		{"neither resolved, same place", click(nil, "New customer", 500, 400), click(nil, "New customer", 505, 400), 0.6},
		{"resolved against an OCR guess that disagrees, same place", click(ok, "New customer", 500, 400), click(ocr("grace@example.org"), "", 502, 401), minMatch},
		{"two OCR guesses that disagree, same place", click(ocr("First Name Ada"), "New customer", 500, 400), click(ocr("grace@example.org"), "", 502, 401), minMatch},
		{"two OCR guesses that agree", click(ocr("OK"), "New customer", 500, 400), click(ocr("OK"), "New customer", 100, 100), 0.9},
	} {
		if got := similarity(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: similarity = %v; want %v", tc.name, got, tc.want)
		}
		if got := similarity(tc.b, tc.a); got != tc.want {
			t.Errorf("%s, the other way round: similarity = %v; want %v", tc.name, got, tc.want)
		}
	}
}

// TestRepPrefersTheNamedElement: a demonstration whose enrichment timed
// out on a busy machine leaves a label read off the screen ("ad" for an
// OK button); the step the accessibility tree named stands for the column,
// whichever recording came first.
func TestRepPrefersTheNamedElement(t *testing.T) {
	path := "dialog[New customer]/push button[OK]"
	read := &events.Step{Action: events.ActionClick, Enrichment: &events.Enrichment{Kind: "none", Label: "ad"}}
	named := &events.Step{Action: events.ActionClick, Enrichment: &events.Enrichment{Kind: "ax", Role: "button", Label: "OK", AXPath: &path}}
	bare := &events.Step{Action: events.ActionClick}
	for _, c := range []column{{read, named}, {named, read}, {bare, read, named}, {nil, named}} {
		if got := c.rep(); got != named {
			t.Errorf("rep of %d steps = %+v; want the tree's OK", len(c), got.Enrichment)
		}
	}
	if got := (column{bare, read}).rep(); got != read {
		t.Errorf("rep without a named element = %+v; want the labelled step", got)
	}
	if got := (column{nil, bare}).rep(); got != bare {
		t.Errorf("rep without any label = %+v; want the first step done", got)
	}
}
