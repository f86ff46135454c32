package progress

import "os"

// IsTerminal reports whether f is a terminal (a console on Windows), where
// the bar can redraw its line in place. A pipe, a file or an error is not.
func IsTerminal(f *os.File) bool {
	return f != nil && isTerminal(f.Fd())
}
