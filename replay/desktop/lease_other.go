//go:build !linux && !windows && !darwin

package desktop

import "cmp"

// displayLock is a file in the user's cache dir keyed by the display.
func displayLock(display, name string) (locker, error) {
	return sessionFile(cmp.Or(display, "console"), name)
}
