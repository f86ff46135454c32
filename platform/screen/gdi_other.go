//go:build !windows

package screen

import (
	"fmt"
	"image"
	"runtime"
)

// GDI grabs the Windows virtual screen; it exists on Windows only.
type GDI struct{}

// NewGDI reports that GDI grabbing is not supported on this system.
func NewGDI() (*GDI, error) {
	return nil, fmt.Errorf("gdi: %w: not supported on %s", ErrUnavailable, runtime.GOOS)
}

// Grab reports that GDI grabbing is not supported on this system.
func (*GDI) Grab() (*image.RGBA, error) {
	return nil, fmt.Errorf("gdi: %w: not supported on %s", ErrUnavailable, runtime.GOOS)
}

// Close does nothing here.
func (*GDI) Close() error { return nil }

// GrabWindow reports that GDI grabbing is not supported on this system.
func GrabWindow(hwnd uintptr) (*image.RGBA, error) {
	return nil, fmt.Errorf("gdi window %#x: %w: not supported on %s", hwnd, ErrUnavailable, runtime.GOOS)
}
