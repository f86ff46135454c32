package desktop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/internal/flock"
)

// Lease is the desktop lease: one replay at a time sends input to a
// person's desktop, across every reprise process of the user whatever its
// data dir. It is an OS file lock (released by the OS if its holder dies)
// in the user's cache dir, one per display.
type Lease struct {
	path string
	// Note says who holds it, for a replay that waits ("run RUN, pid N").
	Note string
	// Waiting, if set, is told once each time a hold starts waiting for
	// another holder, with that holder's note: the CLI shows it.
	Waiting func(holder string)
	Logger  *slog.Logger
}

// leasePoll is how often a waiting hold tries the lock again: the OS
// offers no wait on a lock that is portable and bounded by a context.
const leasePoll = 50 * time.Millisecond

// NewLease returns the lease of this user's desktop on display (DISPLAY on
// X11; "" for the console session elsewhere).
func NewLease(display, note string) (*Lease, error) {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "reprise")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("desktop lease: %w", err)
	}
	name := "console"
	if display != "" {
		name = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
				return r
			}
			return '_'
		}, display)
	}
	return &Lease{path: filepath.Join(dir, "desktop-"+name+".lock"), Note: note}, nil
}

// LeaseAt is a lease on the lock file path (tests, and a person who wants
// the lease elsewhere).
func LeaseAt(path, note string) *Lease { return &Lease{path: path, Note: note} }

// Hold waits for the lease and returns its release. Waiting is logged and
// told to Waiting; ctx ends the wait.
func (l *Lease) Hold(ctx context.Context) (release func(), err error) {
	waited := false
	for {
		lock, err := flock.Take(l.path, l.Note)
		if err == nil {
			if waited && l.Logger != nil {
				l.Logger.InfoContext(ctx, "desktop lease taken")
			}
			return lock.Release, nil
		}
		if !errors.Is(err, flock.ErrHeld) {
			return nil, fmt.Errorf("desktop lease: %w", err)
		}
		if !waited {
			waited = true
			holder := flock.Holder(l.path)
			if l.Logger != nil {
				l.Logger.InfoContext(ctx, "waiting for the desktop: another replay holds it", "holder", holder)
			}
			if l.Waiting != nil {
				l.Waiting(holder)
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for the desktop lease: %w", ctx.Err())
		case <-time.After(leasePoll):
		}
	}
}
