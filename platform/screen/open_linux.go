package screen

// Open grabs display ("" for $DISPLAY) through X11.
func Open(display string) (Grabber, func() error, error) {
	g, err := NewX11(display)
	if err != nil {
		return nil, nil, err
	}
	return g, g.Close, nil
}
