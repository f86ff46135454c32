package desktop

// NewInput returns synthetic input on this desktop: SendInput on Windows.
// display is ignored here (it names an X display on Linux).
func NewInput(display string) (Input, error) {
	_ = display
	return newWinInput()
}
