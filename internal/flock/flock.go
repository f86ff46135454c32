// Package flock holds a file's OS lock (flock, LockFileEx): released by the
// OS when its holder dies, so a crash never leaves a stale lock behind.
package flock

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// ErrHeld is returned by Take when another holder has the lock.
var ErrHeld = errors.New("held by another process")

// Lock is a held lock.
type Lock struct{ f *os.File }

// Take locks path without waiting and writes note (who holds it) into the
// file. When another holder has it, the error wraps ErrHeld and quotes
// that holder's note.
func Take(path, note string) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := TryLock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%w: %s", ErrHeld, Holder(path))
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(note+"\n"), 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		Unlock(f)
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// Release lets the next holder in. The file stays: removing it would let
// a process that opened it just before lock a file nobody else sees.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	Unlock(l.f)
	l.f.Close()
	l.f = nil
}

// Holder is the note the holder of path wrote. A holder that has just
// taken the lock writes it a moment later: it is waited for, briefly.
func Holder(path string) string {
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if note := strings.TrimSpace(string(b)); err == nil && note != "" {
			return note
		}
		if time.Now().After(deadline) {
			return "a process that did not say which"
		}
	}
}
