package desktop

// NewInput is this OS's synthetic input: XTEST on display ("" for $DISPLAY).
func NewInput(display string) (Input, error) { return NewX11Input(display) }
