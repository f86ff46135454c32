// Package input is synthetic input on the desktop, on every OS: XTEST on
// X11, SendInput on Windows, CGEventPost on macOS. Keys are named by
// platform/keys.
package input

import (
	"errors"
	"runtime"
	"time"

	"github.com/reprise-dev/reprise/platform/keys"
)

// Input is synthetic input on the desktop: the floor under every step an
// accessibility action cannot do.
type Input interface {
	// Click clicks button (1 left, 3 right) at root coordinates x, y.
	Click(x, y, button int) error
	// Type types text into whatever has the focus.
	Type(text string) error
	// Press presses a chord such as ctrl+s.
	Press(c keys.Chord) error
	// Idle is how long no input reached the desktop, ours included.
	Idle() (time.Duration, error)
	// Activate brings the top-level window titled title to the front with
	// the focus, as a person's click on it would.
	Activate(title string) error
	Close() error
}

// Mouse is pointer input finer than Click: a drag presses, moves and
// releases; a wheel turns by notches (dy > 0 down, dx > 0 right) where the
// pointer is. XTEST has it; where an Input lacks it, callers refuse.
type Mouse interface {
	Move(x, y int) error
	Button(button int, down bool) error
	Scroll(dx, dy int) error
}

// ErrNotAField is a field reader's error where the point holds no field
// it can read (no edit control, a custom-drawn field, another window): the
// field is gone from there, unlike a read that failed because the app was
// busy.
var ErrNotAField = errors.New("no edit control there")

// ErrSecretField is a field reader's error where the point holds a
// password field, which is never read.
var ErrSecretField = errors.New("the field at the point is a password field, which is never read")

// ErrNoInput is returned where this build has no synthetic input.
var ErrNoInput = errors.New("desktop input is not supported on " + runtime.GOOS + " yet")
