//go:build !linux

package marks

import (
	"errors"
	"runtime"
)

// New reports that marks are drawn on X11 only so far.
func New(display string) (Overlay, error) {
	return nil, errors.New("marks are drawn on X11 only so far, not on " + runtime.GOOS)
}
