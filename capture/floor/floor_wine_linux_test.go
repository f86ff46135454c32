package floor_test

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/platform/ax/msaa"
)

// TestWindowsFloorUnderWine records notepad with the whole Windows floor
// (hooks, BitBlt frames, UI Automation else MSAA) under Wine, as the
// daemon would on Windows: every step has its pre-action frame, and the
// click into notepad's text area names the text field.
func TestWindowsFloorUnderWine(t *testing.T) {
	rec := wine.NotepadSession(t, "-floor")
	if len(rec.Steps) != 5 {
		t.Fatalf("%d steps; want 5 (see the log above)\n%s", len(rec.Steps), rec.Log)
	}
	for _, s := range rec.Steps {
		if n := rec.Frames[s.ScreenshotRef]; s.ScreenshotRef == "" || n < 1000 {
			t.Errorf("%s step: screenshot_ref %q with a %d-byte PNG; want its pre-action frame stored", s.Action, s.ScreenshotRef, n)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("step %s: %v", s.Action, err)
		}
	}
	click, fill := rec.Steps[0], rec.Steps[1]
	for _, s := range []events.Step{click, fill} {
		e := s.Enrichment
		if e == nil || e.Kind != events.KindAX || e.Role != "textbox" || e.AXPath == nil ||
			!strings.HasPrefix(*e.AXPath, "window[Untitled - Notepad]/") {
			t.Errorf("%s step enrichment %+v; want notepad's text field from MSAA", s.Action, e)
		}
		if e != nil && msaa.IsPassword(e) {
			t.Errorf("%s step: notepad's text area taken for a password field", s.Action)
		}
	}
	if fill.Value == nil || fill.Value.Raw != "Hi there" {
		t.Errorf("fill value %+v; want Hi there", fill.Value)
	}
}
