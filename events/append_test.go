package events

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// wantLibraryBytes fails unless AppendMsgpack writes exactly what the msgpack
// library's reflective encoder writes for v.
func wantLibraryBytes(t testing.TB, name string, v any) {
	t.Helper()
	got, err := AppendMsgpack(nil, v)
	if err != nil {
		t.Fatalf("AppendMsgpack(%s) = %v", name, err)
	}
	want, err := msgpack.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		from := max(i-8, 0)
		t.Errorf("AppendMsgpack(%s) differs from the reflective encoder at byte %d of %d/%d: % x...; want % x...",
			name, i, len(got), len(want), got[from:min(i+8, len(got))], want[from:min(i+8, len(want))])
	}
}

func TestAppendMatchesLibrary(t *testing.T) {
	for _, path := range goldenFiles(t, "steps/*.json") {
		s, err := DecodeStepJSON(readFile(t, path))
		if err != nil {
			t.Fatal(err)
		}
		wantLibraryBytes(t, path, s)
		wantLibraryBytes(t, path+" by value", *s)
	}
	for _, path := range goldenFiles(t, "recordings/*.json") {
		r, err := DecodeRecordingJSON(readFile(t, path))
		if err != nil {
			t.Fatal(err)
		}
		wantLibraryBytes(t, path, r)
		wantLibraryBytes(t, path+" by value", *r)
	}

	yes, no := true, false
	edge := specStep(t)
	edge.Seq, edge.TS, edge.Redacted = math.MaxUint64, math.Copysign(0, -1), true
	edge.Cursor = []int{0, 127, 128, 255, 256, 65535, 65536, 1<<32 - 1, 1 << 32, math.MaxInt64,
		-1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1, math.MinInt64}
	edge.Narration = new(strings.Repeat("n", 31))
	edge.ActiveApp, edge.ActiveWindow = strings.Repeat("a", 32), strings.Repeat("w", 255)
	edge.ScreenshotRef, edge.Outcome = strings.Repeat("s", 256), strings.Repeat("o", 65535)
	edge.Actor = strings.Repeat("x", 65536)
	edge.Value.IsParameter = &yes
	edge.Enrichment.AXPath = new("")
	for range 12 {
		edge.Enrichment.Selectors = append(edge.Enrichment.Selectors, Selector{StrategyXPath, "/html"})
	}
	wantLibraryBytes(t, "edge step", edge)

	// The optional enrichment fields of schemas 1.2 to 1.5, each alone:
	// the fast path must not drop them.
	for name, e := range map[string]Enrichment{
		"container": {Kind: KindDOM, Container: &Container{Role: "group", Name: "Shipping"}},
		"keyed":     {Kind: KindDOM, Keyed: true},
		"dialog":    {Kind: KindDOM, Dialog: "dismiss"},
		"multiple":  {Kind: KindDOM, Multiple: true},
		"half":      {Kind: KindDOM, Half: HalfEnd},
	} {
		s := specStep(t)
		s.Enrichment = &e
		wantLibraryBytes(t, "step with a "+name, s)
		b, _ := AppendMsgpack(nil, s)
		var back Step
		if err := Decode(b, &back); err != nil || back.Enrichment.Keyed != e.Keyed || back.Enrichment.Dialog != e.Dialog || (e.Container != nil) != (back.Enrichment.Container != nil) ||
			back.Enrichment.Multiple != e.Multiple || back.Enrichment.Half != e.Half {
			t.Errorf("step with a %s: decoded %+v, %v", name, back.Enrichment, err)
		}
	}

	bare := &Step{Value: &Value{IsParameter: &no}, Enrichment: &Enrichment{Selectors: []Selector{}}, Cursor: []int{}}
	wantLibraryBytes(t, "bare step", bare)
	wantLibraryBytes(t, "zero step", &Step{TS: math.NaN()})
	wantLibraryBytes(t, "nil step", (*Step)(nil))

	wide := &Step{Cursor: make([]int, 1<<16), Enrichment: &Enrichment{Selectors: make([]Selector, 1<<16)}}
	wantLibraryBytes(t, "step with 2^16 coordinates and selectors", wide)

	many := &Recording{RecordingID: "rec_x", CreatedAt: math.Inf(1)}
	wantLibraryBytes(t, "recording without steps", many)
	for i := range 20 {
		many.Steps = append(many.Steps, *stepSeq(t, uint64(i)))
	}
	wantLibraryBytes(t, "recording with 20 steps", many)
	wantLibraryBytes(t, "nil recording", (*Recording)(nil))
}
