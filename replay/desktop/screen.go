package desktop

import "image"

// Grabber grabs the whole desktop: the X11, GDI and Quartz grabbers of
// capture/frames and capture/quartz.
type Grabber interface {
	Grab() (*image.RGBA, error)
}

// ScreenOf adapts a Grabber to Options.Screen.
func ScreenOf(g Grabber) func() (image.Image, error) {
	return func() (image.Image, error) { return g.Grab() }
}
