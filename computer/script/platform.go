package script

import (
	"context"
	"image"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/screen"
)

// Tree is the accessibility tree a run reads and acts through.
type Tree interface {
	ax.Tree
	ax.Lister
}

// Clipboard is the system clipboard's text.
type Clipboard interface {
	Read(ctx context.Context) (string, error)
	Write(ctx context.Context, text string) error
	// Owner is the pid of the program whose copy the clipboard holds, 0
	// when none does; an error when the OS cannot tell.
	Owner(ctx context.Context) (int, error)
}

// Platform is what this OS gives a run; a nil part makes the calls that
// need it throw (capture, input, AX, clipboard), and capabilities() says so.
type Platform struct {
	Backend   string // "x11", "windows", "macos"
	Input     input.Input
	Screen    screen.Grabber
	Tree      Tree
	Clipboard Clipboard
	// Displays are the screens in global desktop coordinates.
	Displays func() ([]image.Rectangle, error)
	// Close releases what Open acquired.
	Close func() error
}
