//go:build !(aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos || windows)

package progress

// isTerminal is false where there is no way to ask (js, wasip1, plan9):
// plain lines are always readable, a redrawn line is not.
func isTerminal(uintptr) bool { return false }
