package flock

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockAt is the byte locked: far past the holder's pid, which Windows
// would otherwise refuse to let a second process read.
const lockAt = 1 // OffsetHigh: the byte at 4 GiB

// TryLock takes an exclusive lock on one byte of f without waiting.
func TryLock(f *os.File) error {
	ol := windows.Overlapped{OffsetHigh: lockAt}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
}

func Unlock(f *os.File) {
	ol := windows.Overlapped{OffsetHigh: lockAt}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
