//go:build !linux && !windows

package input

import "image"

// Pointer is not read on this OS yet (macOS would ask CGEventGetLocation).
func Pointer(string) (image.Point, error) { return image.Point{}, ErrNoInput }
