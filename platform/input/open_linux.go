package input

// New is this OS's synthetic input: XTEST on display ("" for $DISPLAY).
func New(display string) (Input, error) { return NewX11(display) }
