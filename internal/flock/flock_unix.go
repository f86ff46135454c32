//go:build !windows

package flock

import (
	"os"

	"golang.org/x/sys/unix"
)

// TryLock takes an exclusive flock on f without waiting. flock, not fcntl:
// its lock belongs to the open file, so a second open in the same process
// (a test starting two daemons or two runs) is refused too.
func TryLock(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

func Unlock(f *os.File) {
	_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
}
