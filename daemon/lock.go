package daemon

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/internal/flock"
)

// LockFile is the file in the data dir whose OS lock a daemon holds for its
// whole life: one daemon per home, whatever state client.json is in and
// whether or not the first daemon still answers.
const LockFile = "daemon.lock"

// homeLock is a held lock on a data dir.
type homeLock struct{ f *os.File }

// lockHome takes the data dir's lock without waiting, or says who holds it.
// The holder's pid and start time are written into the file for that
// message; the lock itself is the OS's (flock, LockFileEx), released by the
// OS when the holder dies, so a crash never leaves a stale lock behind.
func lockHome(home string) (*homeLock, error) {
	path := filepath.Join(home, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := flock.TryLock(f); err != nil {
		holder := readHolder(path)
		f.Close()
		return nil, fmt.Errorf("another reprise daemon (%s) holds %s; stop it first, or set %s to use another data dir", holder, home, HomeEnv)
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(fmt.Sprintf("%d %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))), 0)
	}
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		flock.Unlock(f)
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return &homeLock{f: f}, nil
}

// release lets the next daemon in. The file stays: removing it would let a
// daemon that opened it just before lock a file nobody else sees.
func (l *homeLock) release() {
	if l == nil || l.f == nil {
		return
	}
	flock.Unlock(l.f)
	l.f.Close()
	l.f = nil
}

// readHolder describes the daemon named in the lock file. A holder that
// has just taken the lock writes its pid a moment later: it is waited for,
// briefly.
func readHolder(path string) string {
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil {
			return "pid unknown"
		}
		if fields := strings.Fields(string(b)); len(fields) >= 2 {
			if _, err := strconv.Atoi(fields[0]); err == nil {
				return "pid " + fields[0] + ", started " + fields[1]
			}
		}
		if time.Now().After(deadline) {
			return "pid unknown"
		}
	}
}
