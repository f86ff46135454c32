package interpret

import (
	"context"
	"errors"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extract"
)

func word(text string, x, y, line int) extract.Word {
	return extract.Word{Text: text, Box: image.Rect(x, y, x+10*len(text), y+20), Conf: 90, Block: 1, Par: 1, Line: line}
}

func TestNearestLine(t *testing.T) {
	res := extract.OCRResult{Words: []extract.Word{
		word("First", 10, 10, 1), word("Name", 70, 10, 1),
		word("Email", 10, 60, 2),
		word("Save", 300, 200, 3),
	}}
	for _, tc := range []struct {
		p    image.Point
		want string
	}{
		{image.Pt(75, 15), "First Name"}, // on the words
		{image.Pt(200, 65), "Email"},     // right of a label, in its field
		{image.Pt(310, 210), "Save"},     // on a button
		{image.Pt(320, 400), "Save"},     // below everything
	} {
		if got := NearestLine(res, tc.p); got != tc.want {
			t.Errorf("NearestLine at %v = %q; want %q", tc.p, got, tc.want)
		}
	}
	if got := NearestLine(extract.OCRResult{}, image.Pt(1, 1)); got != "" {
		t.Errorf("no words gave %q", got)
	}
}

func TestStepSources(t *testing.T) {
	ctx := context.Background()
	frames := map[string][]byte{"f1": []byte("png")}
	x := Extractor{
		Frame: func(_ context.Context, ref string) ([]byte, error) {
			if b, ok := frames[ref]; ok {
				return b, nil
			}
			return nil, errors.New("no such frame")
		},
		OCR: func(context.Context, []byte) (extract.OCRResult, error) {
			return extract.OCRResult{Words: []extract.Word{word("Customer", 0, 0, 1), word("Save", 100, 100, 2)}}, nil
		},
		Document: func(_ context.Context, path string) ([]string, error) {
			return []string{"page of " + filepath.Base(path)}, nil
		},
	}
	doc := filepath.Join(t.TempDir(), "invoice.pdf")
	if err := os.WriteFile(doc, []byte("%PDF-1.4"), 0o600); err != nil {
		t.Fatal(err)
	}
	dom := &events.Enrichment{Kind: events.KindDOM, Label: "First Name"}
	cases := []struct {
		name   string
		step   events.Step
		source string
		label  string
		miss   string
	}{
		{"dom label as captured", events.Step{Action: events.ActionFill, Enrichment: dom}, "dom", "First Name", ""},
		{"OCR near the cursor", events.Step{Action: events.ActionClick, ScreenshotRef: "f1", Cursor: []int{105, 105}}, "ocr", "Save", ""},
		{"no frame", events.Step{Action: events.ActionClick}, "", "", "no frame"},
		{"frame gone", events.Step{Action: events.ActionClick, ScreenshotRef: "f9", Cursor: []int{1, 1}}, "", "", "frame unreadable"},
		{"a document on this machine", events.Step{Action: events.ActionFileOp, Value: &events.Value{Raw: doc}}, "document", "", ""},
		{"a browser upload names no path", events.Step{Action: events.ActionUpload, Value: &events.Value{Raw: "invoice.pdf (8 bytes)"}}, "", "", "not where it is"},
	}
	for _, tc := range cases {
		got := x.Step(ctx, tc.step)
		if got.Source != tc.source || got.Label != tc.label || !strings.Contains(got.Missing, tc.miss) || (tc.miss == "" && got.Missing != "") {
			t.Errorf("%s: %+v; want source %q label %q missing %q", tc.name, got, tc.source, tc.label, tc.miss)
		}
	}
	rec := &events.Recording{Steps: []events.Step{
		{Action: events.ActionFill, Enrichment: dom},
		{Action: events.ActionClick, ScreenshotRef: "f1", Cursor: []int{105, 105}},
		{Action: events.ActionClick, Cursor: []int{105, 105}},
	}}
	if n, unread := x.LabelUnresolved(ctx, rec); n != 1 || unread != 0 || rec.Steps[1].Enrichment == nil || rec.Steps[1].Enrichment.Label != "Save" ||
		rec.Steps[1].Enrichment.Kind != events.KindNone || rec.Steps[0].Enrichment.Label != "First Name" || rec.Steps[2].Enrichment != nil {
		t.Errorf("LabelUnresolved labelled %d: %+v %+v %+v", n, rec.Steps[0].Enrichment, rec.Steps[1].Enrichment, rec.Steps[2].Enrichment)
	}
	// OCR stops when ctx ends, and the steps it did not read are counted.
	ended, cancel := context.WithCancel(ctx)
	cancel()
	rec.Steps[1].Enrichment = nil
	if n, unread := x.LabelUnresolved(ended, rec); n != 0 || unread != 1 || rec.Steps[1].Enrichment != nil {
		t.Errorf("LabelUnresolved after its context ended: labelled %d, unread %d; want 0 and 1", n, unread)
	}
	x.OCR = nil
	if got := x.Step(ctx, events.Step{Action: events.ActionClick, ScreenshotRef: "f1"}); got.Missing != "OCR is not available" {
		t.Errorf("without OCR: %+v", got)
	}
}
