package desktop

import (
	"image"

	"github.com/reprise-dev/reprise/platform/screen"
)

// ScreenOf adapts a screen grabber (screen.Open's) to Options.Screen.
func ScreenOf(g screen.Grabber) func() (image.Image, error) {
	return func() (image.Image, error) { return g.Grab() }
}
