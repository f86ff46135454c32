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

// lockHome takes the data dir's lock without waiting, or says who holds it.
// The holder's pid and start time are written into the file for that
// message; the lock itself is the OS's (flock, LockFileEx), released by the
// OS when the holder dies, so a crash never leaves a stale lock behind.
func lockHome(home string) (*flock.Lock, error) {
	path := filepath.Join(home, LockFile)
	l, err := flock.Take(path, fmt.Sprintf("%d %s", os.Getpid(), time.Now().UTC().Format(time.RFC3339)))
	if errors.Is(err, flock.ErrHeld) {
		return nil, fmt.Errorf("another reprise daemon (%s) holds %s; stop it first, or set %s to use another data dir", readHolder(path), home, HomeEnv)
	}
	return l, err
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
