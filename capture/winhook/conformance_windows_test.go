package winhook_test

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/capturetest"
	"github.com/reprise-dev/reprise/capture/winhook"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/keys"
)

// TestWineConformance runs capturetest against the hooks in a Wine virtual
// desktop (winhook_linux_test.go starts it), the person played by
// SendInput: so the source records injected input here, which a recording
// never does. Two steps per drive: a chord and a right click on the
// desktop's background.
func TestWineConformance(t *testing.T) {
	wine.InDesktop(t)
	in, err := input.New("")
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	chord, err := keys.ParseChord("ctrl+s")
	if err != nil {
		t.Fatal(err)
	}
	// Warm up the just-made desktop before anything records: in CI (a
	// fresh Wine prefix, a loaded machine) the first input into a new
	// desktop was once missed.
	for i := 0; i < 2; i++ {
		if err := in.Click(700, 500, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	capturetest.Run(t, func(t *testing.T) capture.Source {
		return winhook.New(winhook.Options{IncludeInjected: true})
	}, func(t *testing.T, _ capture.Source) {
		if err := in.Press(chord); err != nil {
			t.Error(err)
		}
		time.Sleep(50 * time.Millisecond)
		if err := in.Click(700, 500, 3); err != nil {
			t.Error(err)
		}
	}, 2)
}
