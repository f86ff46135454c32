//go:build !windows

package daemon

import (
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes an exclusive flock on f without waiting. flock, not fcntl:
// its lock belongs to the open file, so a second open in the same process
// (a test starting two daemons) is refused too.
func tryLock(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

func unlock(f *os.File) {
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
}
