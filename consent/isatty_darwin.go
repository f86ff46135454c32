package consent

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal this process may read now. A
// daemon started with & shares its controlling terminal but sits in a
// background process group, and a read there would stop the whole daemon
// with SIGTTIN; so on our controlling terminal only the foreground counts.
// TIOCGPGRP fails with ENOTTY on a terminal that is not ours.
func isTerminal(fd uintptr) bool {
	if _, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA); err != nil {
		return false
	}
	pgrp, err := unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	return err != nil || pgrp == unix.Getpgrp()
}
