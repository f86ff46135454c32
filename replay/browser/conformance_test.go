package browser

import (
	"context"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/replaytest"
	"github.com/reprise-dev/reprise/skills"
)

// TestConformance runs the executors' suite, each case on its own tab of
// one Chromium.
func TestConformance(t *testing.T) {
	_, s := browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	replaytest.Run(t, replaytest.Target{
		Open: skills.Step{Action: "navigate", Value: s.URL + "/customers/new"},
		New: func(t *testing.T) replay.Executor {
			ex, err := New(context.Background(), Options{BrowserURL: br.DevTools, FindTimeout: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = ex.Close() })
			return ex
		},
	})
}
