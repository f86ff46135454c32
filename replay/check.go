package replay

import (
	"context"
	"time"

	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// Reader reads what a check looks at: the window's (or page's) title and
// its visible elements.
type Reader func(ctx context.Context) (title string, t selector.Tree, err error)

// Poll looks at what read returns every skills.CheckEvery until c holds or
// wait has passed. When it never held, seen says what the last look saw.
// A read that fails counts as a look that saw nothing: a window or page may
// be between states.
func Poll(ctx context.Context, c skills.Check, wait time.Duration, read Reader) (held bool, seen string, err error) {
	deadline := time.Now().Add(wait)
	for {
		title, t, rerr := read(ctx)
		if rerr == nil {
			if held, seen = c.Holds(title, t); held {
				return true, "", nil
			}
		} else {
			seen = "nothing could be read: " + rerr.Error()
		}
		if !time.Now().Before(deadline) {
			return false, seen, nil
		}
		select {
		case <-ctx.Done():
			return false, seen, ctx.Err()
		case <-time.After(min(skills.CheckEvery, time.Until(deadline))):
		}
	}
}
