package input

import (
	"image"

	"github.com/reprise-dev/reprise/platform/win32"
)

// Pointer is where the pointer is on the virtual screen; display is
// ignored. It sends nothing.
func Pointer(string) (image.Point, error) {
	x, y, err := win32.CursorPos()
	return image.Pt(x, y), err
}
