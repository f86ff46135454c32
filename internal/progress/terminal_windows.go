//go:build windows

package progress

import "golang.org/x/sys/windows"

// isTerminal asks for the console mode, which only a console has; a
// mintty or Cygwin pipe is not one and gets the plain lines.
func isTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}
