package desktop

import "github.com/reprise-dev/reprise/capture/frames"

// NewScreen grabs the virtual screen by BitBlt; display is ignored.
func NewScreen(string) (Grabber, func() error, error) {
	g, err := frames.NewGDI()
	if err != nil {
		return nil, nil, err
	}
	return g, g.Close, nil
}
