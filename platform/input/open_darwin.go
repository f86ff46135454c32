package input

// New returns synthetic input for this desktop: on macOS, Quartz
// events posted at the HID level (CGEventPost); display is ignored. It
// needs Accessibility permission for the process.
func New(display string) (Input, error) {
	_ = display
	return newQuartzInput()
}
