package screen

// Open grabs the displays through CGWindowList; display is ignored.
func Open(string) (Grabber, func() error, error) {
	g, err := NewQuartz()
	if err != nil {
		return nil, nil, err
	}
	return g, func() error { return nil }, nil
}
