package interpret

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extract"
)

// StepText is what a recorded step says in words, read on this machine.
type StepText struct {
	Seq uint64 `json:"seq"`
	// Source is where the text came from: dom, ax, ocr or document.
	Source string `json:"source"`
	// Label names what the step acted on: a field's label, a button's text,
	// or the OCR line nearest the cursor.
	Label string `json:"label,omitempty"`
	// Text is the rest: OCR of the whole frame, or a document's pages.
	Text []string `json:"text,omitempty"`
	// Missing says why a step has no text, when it has none.
	Missing string `json:"missing,omitempty"`
}

// Extractor turns steps into text without pixels leaving the machine.
type Extractor struct {
	// Frame returns a step's pre-action frame by its screenshot_ref.
	Frame func(ctx context.Context, ref string) ([]byte, error)
	// OCR reads a frame; nil means OCR is not available.
	OCR func(ctx context.Context, img []byte) (extract.OCRResult, error)
	// Document reads a document's pages; nil means not available.
	Document func(ctx context.Context, path string) ([]string, error)
}

// Local returns the extractor backed by this machine's tesseract and
// reprise-fitz, each where it works.
func Local(ctx context.Context, frame func(context.Context, string) ([]byte, error)) Extractor {
	x := Extractor{Frame: frame}
	if ok, _ := extract.OCRAvailable(ctx); ok {
		x.OCR = extract.OCR
	}
	if ok, _ := extract.DocumentsAvailable(); ok {
		x.Document = extract.DocumentText
	}
	return x
}

// Step reads one step: its DOM/AX label as captured, OCR of its frame when
// it resolved no element, and the document a file step names when that file
// is on this machine.
func (x Extractor) Step(ctx context.Context, s events.Step) StepText {
	out := StepText{Seq: s.Seq}
	if e := s.Enrichment; e != nil && e.Kind != events.KindNone {
		out.Source, out.Label = e.Kind, e.Label
	}
	if s.Action == events.ActionUpload || s.Action == events.ActionFileOp {
		if doc, why := x.document(ctx, s); why == "" {
			out.Source, out.Text = "document", doc
		} else {
			out.Missing = why
		}
		return out
	}
	if out.Source != "" {
		return out
	}
	switch {
	case s.ScreenshotRef == "":
		out.Missing = "no frame"
	case x.OCR == nil:
		out.Missing = "OCR is not available"
	default:
		img, err := x.Frame(ctx, s.ScreenshotRef)
		if err != nil {
			out.Missing = fmt.Sprintf("frame unreadable: %v", err)
			break
		}
		res, err := x.OCR(ctx, img)
		if err != nil {
			out.Missing = fmt.Sprintf("OCR failed: %v", err)
			break
		}
		out.Source, out.Text = "ocr", res.Lines()
		if len(s.Cursor) == 2 {
			out.Label = NearestLine(res, image.Pt(s.Cursor[0], s.Cursor[1]))
		}
	}
	return out
}

// document reads the file a step names, when the value is a path to a file
// on this machine; a browser upload names only the file, not where it is.
func (x Extractor) document(ctx context.Context, s events.Step) ([]string, string) {
	if s.Value == nil || s.Value.Raw == "" || s.Redacted {
		return nil, "no file named"
	}
	path := s.Value.Raw
	if !filepath.IsAbs(path) {
		return nil, "the step names a file but not where it is (a browser upload gives the name only)"
	}
	if x.Document == nil {
		return nil, "the document extractor is not available"
	}
	if _, err := os.Stat(path); err != nil {
		return nil, "the file is no longer on this machine"
	}
	pages, err := x.Document(ctx, path)
	if errors.Is(err, extract.ErrUnavailable) {
		return nil, "the document extractor is not available"
	}
	if err != nil {
		return nil, fmt.Sprintf("document unreadable: %v", err)
	}
	return pages, ""
}

// NearestLine is the OCR line closest to p: the text a click landed on, or
// the label beside the field it focused.
func NearestLine(res extract.OCRResult, p image.Point) string {
	type line struct {
		box   image.Rectangle
		words []string
	}
	lines := map[[3]int]*line{}
	var order [][3]int
	for _, w := range res.Words {
		if strings.TrimSpace(w.Text) == "" {
			continue
		}
		k := [3]int{w.Block, w.Par, w.Line}
		l, ok := lines[k]
		if !ok {
			l = &line{box: w.Box}
			lines[k] = l
			order = append(order, k)
		}
		l.box = l.box.Union(w.Box)
		l.words = append(l.words, w.Text)
	}
	best, bestD := "", math.Inf(1)
	for _, k := range order {
		if d := distance(lines[k].box, p); d < bestD {
			best, bestD = strings.Join(lines[k].words, " "), d
		}
	}
	return best
}

// distance weighs rows over columns: a field's label sits on its row or just
// above it, while the line above a label belongs to another field.
func distance(r image.Rectangle, p image.Point) float64 {
	dx := max(r.Min.X-p.X, 0, p.X-r.Max.X)
	dy := max(r.Min.Y-p.Y, 0, p.Y-r.Max.Y)
	return float64(dx + 4*dy)
}

// LabelUnresolved names, by OCR of their frames, the steps of rec that no
// channel resolved, so they can be aligned and their parameters named like
// the others. Their kind stays none: OCR read a label, it found no element.
// It returns how many steps got a label, and how many were left unread
// because ctx ended first (a deadline bounds OCR of a long recording).
func (x Extractor) LabelUnresolved(ctx context.Context, rec *events.Recording) (labelled, unread int) {
	if x.OCR == nil {
		return 0, 0
	}
	for i := range rec.Steps {
		s := &rec.Steps[i]
		if (s.Enrichment != nil && (s.Enrichment.Kind != events.KindNone || s.Enrichment.Label != "")) || s.ScreenshotRef == "" {
			continue
		}
		if ctx.Err() != nil {
			unread++
			continue
		}
		t := x.Step(ctx, *s)
		if t.Label == "" {
			if ctx.Err() != nil {
				unread++
			}
			continue
		}
		if s.Enrichment == nil {
			s.Enrichment = &events.Enrichment{Kind: events.KindNone}
		}
		s.Enrichment.Label = t.Label
		labelled++
	}
	return labelled, unread
}
