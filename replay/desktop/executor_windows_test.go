package desktop

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/replaytest"
	"github.com/reprise-dev/reprise/skills"
)

// TestWineNotepadFill replays a fill into notepad through the floor, as on
// Windows with no UI Automation: SendInput clicks the recorded point and
// types the value as Unicode keys, and WM_GETTEXT reads it back. Run in a
// Wine virtual desktop by executor_wine_linux_test.go.
func TestWineNotepadFill(t *testing.T) {
	wine.InDesktop(t)
	wine.Notepad(t, 100, 80, 600, 400)
	in, err := input.New("")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := New(Options{Input: in, Quiet: 100 * time.Millisecond, FindTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	value := "Ada Lovelace, 10 Downing St. — é ü ß"
	fill := func(value, expect string) replay.Outcome {
		t.Helper()
		st := replay.Step{Row: 1, Step: skills.Step{Action: events.ActionFill, Value: value,
			ReadBack: &skills.ReadBack{Kind: "value", Expect: expect},
			Floor:    skills.Floor{Cursor: []int{300, 250}, ActiveWindow: "Untitled - Notepad"}}}
		out, err := ex.Do(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if out := fill(value, value); !out.OK || out.Via != replay.ViaFloor {
		t.Fatalf("fill = %+v; want done through the floor and read back", out)
	}
	got, err := in.(fieldReader).FieldText(300, 250)
	if err != nil || got != value {
		t.Fatalf("notepad holds %q (%v); want %q", got, err, value)
	}
	// A second fill replaces the text (select-all first), and a read-back
	// that does not hold fails the step.
	if out := fill("second", "something else"); out.OK || !strings.Contains(out.Error, "read-back") {
		t.Fatalf("fill with a wrong read-back = %+v; want a read-back failure", out)
	}
	if got, _ := in.(fieldReader).FieldText(300, 250); got != "second" {
		t.Errorf("notepad holds %q; want the second fill alone", got)
	}
	// Outside any edit control there is nothing to read.
	if _, err := in.(fieldReader).FieldText(900, 600); err == nil {
		t.Error("FieldText on the desktop's background succeeded; want an error")
	}
}

// TestWineConformance runs the executor conformance suite against notepad:
// the floor alone, as under Wine (no UI Automation).
func TestWineConformance(t *testing.T) {
	wine.InDesktop(t)
	wine.Notepad(t, 100, 80, 600, 400)
	replaytest.Run(t, replaytest.Target{
		Open: skills.Step{Action: events.ActionFocusWindow, Floor: skills.Floor{ActiveWindow: "Untitled - Notepad"}},
		New: func(t *testing.T) replay.Executor {
			in, err := input.New("")
			if err != nil {
				t.Fatal(err)
			}
			ex, err := New(Options{Input: in, Quiet: 100 * time.Millisecond, FindTimeout: 500 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ex.Close() })
			return ex
		},
	})
}
