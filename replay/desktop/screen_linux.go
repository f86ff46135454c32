package desktop

import "github.com/reprise-dev/reprise/capture/frames"

// NewScreen grabs display ("" for $DISPLAY) through X11.
func NewScreen(display string) (Grabber, func() error, error) {
	g, err := frames.NewX11(display)
	if err != nil {
		return nil, nil, err
	}
	return g, g.Close, nil
}
