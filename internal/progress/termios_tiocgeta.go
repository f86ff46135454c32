//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package progress

import "golang.org/x/sys/unix"

// The BSDs name the read-settings ioctl TIOCGETA; the others TCGETS.
const ioctlReadTermios = unix.TIOCGETA
