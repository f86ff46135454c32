package daemon

import (
	"errors"
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

// homeLock is what a daemon holds for its whole life: the data dir's own
// lock and its lock file's.
type homeLock struct{ dir, file *flock.Lock }

func (l *homeLock) Release() {
	if l == nil {
		return
	}
	l.file.Release()
	l.dir.Release()
}

// lockHome takes the data dir's lock without waiting, or says who holds it.
// The holder's pid and start time are written into the lock file for that
// message; the locks themselves are the OS's (flock, LockFileEx), released
// by the OS when the holder dies, so a crash never leaves a stale lock
// behind. The directory is locked too: the file alone could be deleted
// while its daemon runs, letting a second one onto the same store.
func lockHome(home string) (*homeLock, error) {
	path := filepath.Join(home, LockFile)
	held := func() error {
		return fmt.Errorf("another reprise daemon (%s) holds %s; stop it first, or set %s to use another data dir", readHolder(path), home, HomeEnv)
	}
	dir, err := flock.TakeDir(home)
	if errors.Is(err, flock.ErrHeld) {
		return nil, held()
	}
	if err != nil {
		return nil, err
	}
	file, err := flock.Take(path, fmt.Sprintf("%d %s", os.Getpid(), time.Now().UTC().Format(time.RFC3339)))
	if err != nil {
		dir.Release()
		if errors.Is(err, flock.ErrHeld) {
			return nil, held()
		}
		return nil, err
	}
	return &homeLock{dir: dir, file: file}, nil
}

// readHolder describes the daemon named in the lock file. A holder that
// has just taken the data dir's lock creates the file and writes its pid
// a moment later: it is waited for, briefly.
func readHolder(path string) string {
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(path)
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
