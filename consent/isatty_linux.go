package consent

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal this process may read now. A
// daemon started with & shares its controlling terminal but sits in a
// background process group, and a read there would stop the whole daemon
// with SIGTTIN; so on our controlling terminal only the foreground counts.
func isTerminal(fd uintptr) bool {
	if _, err := unix.IoctlGetTermios(int(fd), unix.TCGETS); err != nil {
		return false
	}
	sid, err := unix.IoctlGetInt(int(fd), unix.TIOCGSID)
	if err != nil {
		return true // no session owns it: job control cannot stop us
	}
	if own, err := unix.Getsid(0); err != nil || own != sid {
		return true // another session's terminal
	}
	pgrp, err := unix.IoctlGetInt(int(fd), unix.TIOCGPGRP)
	return err == nil && pgrp == unix.Getpgrp()
}
