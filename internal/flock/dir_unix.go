//go:build !windows

package flock

import (
	"fmt"
	"os"
)

// TakeDir locks the directory itself without waiting. A lock file can be
// deleted while its holder runs, and the next process then locks a new
// file of the same name; a directory cannot go while it holds a store, so
// its lock holds as long as the holder does.
func TakeDir(dir string) (*Lock, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	if err := TryLock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", dir, ErrHeld)
	}
	return &Lock{f: f}, nil
}
