package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/internal/flock"
	"github.com/reprise-dev/reprise/skills"
)

// profileLock is the file in a browser profile whose OS lock a run holds:
// one run at a time per profile, however many reprise processes there are.
const profileLock = "reprise.lock"

// holdProfile resolves a --profile (a name kept in the data dir's
// profiles/, or a folder given by path; fallback when empty) and takes its
// lock for holder ("run run_..."). A profile another run holds is refused,
// naming that run: two browsers on one profile would each see the other's
// pages and logins change under them.
func holdProfile(home, profile, fallback, holder string) (dir string, release func(), err error) {
	switch {
	case profile == "":
		dir = filepath.Join(home, fallback)
	case skills.ValidProfile(profile):
		dir = filepath.Join(home, "profiles", profile)
	case strings.ContainsAny(profile, `/\`):
		dir = profile
	default:
		return "", nil, fmt.Errorf("--profile %q: name a profile with letters, digits, '-' and '_' (kept in the data dir), or give a folder's path", profile)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("browser profile: %w", err)
	}
	l, err := flock.Take(filepath.Join(dir, profileLock), fmt.Sprintf("%s (pid %d)", holder, os.Getpid()))
	if errors.Is(err, flock.ErrHeld) {
		return "", nil, fmt.Errorf("browser profile %s is in use by %s: wait for it to end, or pass another --profile",
			cmp.Or(profile, "(the default)"), strings.TrimPrefix(err.Error(), flock.ErrHeld.Error()+": "))
	}
	if err != nil {
		return "", nil, fmt.Errorf("browser profile: %w", err)
	}
	return dir, l.Release, nil
}
