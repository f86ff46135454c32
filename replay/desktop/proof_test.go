package desktop

import (
	"context"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestNoTreeAtThePoint: with no accessibility tree, a step that files
// nothing still acts at its recorded point but says it was unproven; a
// destructive one is refused with nothing sent, provably not filed.
func TestNoTreeAtThePoint(t *testing.T) {
	in := &personInput{}
	ex, err := New(Options{Input: in, Quiet: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	at := skills.Floor{Cursor: []int{10, 10}}
	out, err := ex.Do(ctx, replay.Step{Step: skills.Step{Action: "click", Role: "checkbox", Label: "Agree", Floor: at}})
	if err != nil || !out.OK || len(out.Notes) != 1 || !strings.HasPrefix(out.Notes[0], "unproven") || len(in.clicks) != 1 {
		t.Fatalf("a click with no tree = %+v, %v (%d clicks); want it done, noted unproven", out, err, len(in.clicks))
	}
	out, err = ex.Do(ctx, replay.Step{Index: 1, Last: true, Step: skills.Step{Action: "click", Role: "button", Label: "Save", Destructive: true, Floor: at}})
	if err != nil || out.OK || !out.NotFiled() || len(in.clicks) != 1 || !strings.Contains(out.Error, "never clicked by position alone") {
		t.Fatalf("a destructive click with no tree = %+v, %v (%d clicks); want it refused, nothing sent", out, err, len(in.clicks))
	}
}

// listOnly is a tree that can only list a window's elements.
type listOnly struct{ nodes []ax.Node }

func (listOnly) Find(context.Context, string, string, string) ([]ax.Element, error) { return nil, nil }
func (listOnly) Fill(context.Context, ax.Element, string) error                     { return nil }
func (listOnly) Text(context.Context, ax.Element) (string, error)                   { return "", nil }
func (listOnly) Press(context.Context, ax.Element) error                            { return nil }
func (l listOnly) List(context.Context, string, int) ([]ax.Node, error)             { return l.nodes, nil }

// TestProofByTheTreesExtents: a tree that only lists elements proves the
// point by the smallest element whose bounds hold it.
func TestProofByTheTreesExtents(t *testing.T) {
	tree := listOnly{[]ax.Node{
		{Element: ax.Element{Role: "window"}, Name: "Customer", Bounds: image.Rect(0, 0, 400, 300), Parent: -1},
		{Element: ax.Element{Role: "textbox"}, Name: "Email", Bounds: image.Rect(100, 20, 300, 40)},
		{Element: ax.Element{Role: "combobox"}, Name: "Country", Bounds: image.Rect(100, 60, 300, 80)},
	}}
	in := &personInput{}
	ex, err := New(Options{Input: in, AX: tree, Quiet: -1, FindTimeout: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	step := func(x, y int) replay.Step {
		return replay.Step{Step: skills.Step{Action: "click", Role: "textbox", Label: "email:", Floor: skills.Floor{Cursor: []int{x, y}}}}
	}
	if out, err := ex.Do(context.Background(), step(150, 30)); err != nil || !out.OK || len(out.Notes) != 0 || len(in.clicks) != 1 {
		t.Fatalf("a click on the Email field's extents = %+v, %v; want it done, proved", out, err)
	}
	out, err := ex.Do(context.Background(), step(150, 70))
	if err != nil || out.OK || !out.Missed || len(in.clicks) != 1 || !strings.Contains(out.Error, `combobox "Country"`) {
		t.Fatalf("a click on the Country combo's extents = %+v, %v; want a miss naming it", out, err)
	}
}

func TestSameName(t *testing.T) {
	for _, c := range []struct {
		want, got string
		same      bool
	}{
		{"Email", "email:", true},
		{"Email", "E-mail address", false},
		{"Save", "Store", false},
		{"Save*", "Save draft", true},
		{"", "anything", true},
	} {
		if got := sameName(c.want, c.got); got != c.same {
			t.Errorf("sameName(%q, %q) = %v; want %v", c.want, c.got, got, c.same)
		}
	}
}
