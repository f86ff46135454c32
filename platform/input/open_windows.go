package input

// New returns synthetic input on this desktop: SendInput on Windows.
// display is ignored here (it names an X display on Linux).
func New(display string) (Input, error) {
	_ = display
	return newWinInput()
}
