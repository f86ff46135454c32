package screen

// Open grabs the virtual screen through GDI; display is ignored.
func Open(string) (Grabber, func() error, error) {
	g, err := NewGDI()
	if err != nil {
		return nil, nil, err
	}
	return g, g.Close, nil
}
