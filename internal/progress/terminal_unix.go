//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package progress

import "golang.org/x/sys/unix"

// isTerminal asks for the terminal settings, which only a terminal has.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), ioctlReadTermios)
	return err == nil
}
