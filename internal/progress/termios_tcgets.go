//go:build aix || linux || solaris || zos

package progress

import "golang.org/x/sys/unix"

// The BSDs name the read-settings ioctl TIOCGETA; the others TCGETS.
const ioctlReadTermios = unix.TCGETS
