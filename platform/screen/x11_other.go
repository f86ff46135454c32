//go:build !linux

package screen

import (
	"fmt"
	"image"
	"runtime"
)

// X11 grabs an X11 screen; it exists on Linux only.
type X11 struct{}

// NewX11 reports that X11 grabbing is not supported on this system.
func NewX11(display string) (*X11, error) {
	return nil, fmt.Errorf("x11 %q: %w: not supported on %s", display, ErrUnavailable, runtime.GOOS)
}

// Grab reports that X11 grabbing is not supported on this system.
func (x *X11) Grab() (*image.RGBA, error) {
	return nil, fmt.Errorf("x11: %w: not supported on %s", ErrUnavailable, runtime.GOOS)
}

// SHM reports whether grabs go through MIT-SHM: never here.
func (x *X11) SHM() bool { return false }

// Close does nothing here.
func (x *X11) Close() error { return nil }
