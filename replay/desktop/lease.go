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
// display, whoever runs it. The executor holds it for a whole row, from
// the row's first input to its commit, so two replays never interleave
// their rows' fields in one form.
//
// It is tied to the display, not to a user, a data dir or a daemon: on
// X11 it is an X selection owned by a window of the holder's own X
// connection (see lease_linux.go), which every client of that display
// sees and which the X server drops when the holder's connection ends,
// even when the holder is killed. Elsewhere it is an OS file lock on a
// file keyed by the console session (lease_windows.go, lease_darwin.go).
type Lease struct {
	lock locker
	// Note says who holds it, for a replay that waits ("run RUN, pid N").
	Note string
	// Waiting, if set, is told once each time a hold starts waiting for
	// another holder, with that holder's note: the CLI shows it.
	Waiting func(holder string)
	Logger  *slog.Logger
}

// locker is one way of holding the lease.
type locker interface {
	// open starts one hold: its tries, and its wait between them.
	open(note string) (session, error)
}

// session is one hold of the lease, from its first try to its release or
// its giving up.
type session interface {
	// try holds the lock without waiting: release when it got it, else
	// the holder's note and an error wrapping errHeld. A session may
	// queue for the next turn while refused, so that a holder that
	// releases and tries again at once does not starve it.
	try() (release func(), holder string, err error)
	// changed is ready when the lock may have changed hands since the
	// last try.
	changed() <-chan struct{}
	// close gives up a hold that was never taken (its turn too).
	close()
}

// errHeld says another holder has the lease.
var errHeld = errors.New("the desktop lease is held")

// leasePoll is how often a waiting hold tries a file lock again: the OS
// offers no wait on a lock that is portable and bounded by a context.
const leasePoll = 50 * time.Millisecond

// NewLease returns the lease of display (DISPLAY on X11; "" for the
// console session elsewhere), shared by every replay on it.
func NewLease(display, note string) (*Lease, error) {
	lock, err := displayLock(display, "")
	if err != nil {
		return nil, fmt.Errorf("desktop lease: %w", err)
	}
	return &Lease{lock: lock, Note: note}, nil
}

// NewSeat returns another lock of display by the same mechanism, apart
// from the replay lease: name says which ("grant": the one scope grant of
// a desktop, whichever daemon issues it). It is taken with Try.
func NewSeat(display, name, note string) (*Lease, error) {
	if name == "" {
		return nil, errors.New("desktop seat: no name")
	}
	lock, err := displayLock(display, name)
	if err != nil {
		return nil, fmt.Errorf("desktop %s: %w", name, err)
	}
	return &Lease{lock: lock, Note: note}, nil
}

// ErrHeld is Try's refusal: another holder has the lock.
var ErrHeld = errors.New("held by another holder")

// Try takes the lock without waiting and returns its release, or the
// holder's note and an error wrapping ErrHeld.
func (l *Lease) Try() (release func(), holder string, err error) {
	s, err := l.lock.open(l.Note)
	if err != nil {
		return nil, "", err
	}
	release, holder, err = s.try()
	if err != nil {
		s.close()
		if errors.Is(err, errHeld) {
			return nil, holder, fmt.Errorf("%w: %s", ErrHeld, holder)
		}
		return nil, "", err
	}
	return release, "", nil
}

// LeaseAt is a lease on the lock file path (tests, and a person who wants
// the lease elsewhere).
func LeaseAt(path, note string) *Lease { return &Lease{lock: fileLock{path}, Note: note} }

// Hold waits for the lease and returns its release. Waiting is logged and
// told to Waiting; ctx ends the wait.
func (l *Lease) Hold(ctx context.Context) (release func(), err error) {
	release, _, err = l.hold(ctx)
	return release, err
}

// hold is Hold, and whether it waited for another holder.
func (l *Lease) hold(ctx context.Context) (release func(), waited bool, err error) {
	s, err := l.lock.open(l.Note)
	if err != nil {
		return nil, false, fmt.Errorf("desktop lease: %w", err)
	}
	for {
		release, holder, err := s.try()
		if err == nil {
			if waited && l.Logger != nil {
				l.Logger.InfoContext(ctx, "desktop lease taken")
			}
			return release, waited, nil
		}
		if !errors.Is(err, errHeld) {
			s.close()
			return nil, waited, fmt.Errorf("desktop lease: %w", err)
		}
		if !waited {
			waited = true
			if l.Logger != nil {
				l.Logger.InfoContext(ctx, "waiting for the desktop: another replay holds it", "holder", holder)
			}
			if l.Waiting != nil {
				l.Waiting(holder)
			}
		}
		select {
		case <-ctx.Done():
			s.close()
			return nil, waited, fmt.Errorf("waiting for the desktop lease (held by %s): %w", holder, ctx.Err())
		case <-s.changed():
		}
	}
}

// fileLock is the lease as an OS file lock on path (flock, LockFileEx):
// released by the OS if its holder dies. It keeps no queue: a waiter
// tries again every leasePoll.
type fileLock struct{ path string }

func (f fileLock) open(note string) (session, error) {
	return &fileSession{path: f.path, note: note}, nil
}

type fileSession struct{ path, note string }

func (f *fileSession) try() (func(), string, error) {
	lock, err := flock.Take(f.path, f.note)
	if errors.Is(err, flock.ErrHeld) {
		return nil, flock.Holder(f.path), errHeld
	}
	if err != nil {
		return nil, "", err
	}
	return lock.Release, "", nil
}

// changed is ready after leasePoll: a file lock tells nobody when it is
// let go.
func (f *fileSession) changed() <-chan struct{} {
	c := make(chan struct{})
	time.AfterFunc(leasePoll, func() { close(c) })
	return c
}

func (f *fileSession) close() {}

// sessionFile is the lock file of a console session (or display) named
// session, for the lock named name ("" for the replay lease), in the
// user's cache dir (or the temp dir).
func sessionFile(session, name string) (fileLock, error) {
	dir, err := os.UserCacheDir()
	if err != nil || dir == "" {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "reprise")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fileLock{}, err
	}
	base := "desktop-" + fileSafe(session)
	if name != "" {
		base += "-" + fileSafe(name)
	}
	return fileLock{filepath.Join(dir, base+".lock")}, nil
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
}
