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
	if dir, err = profileDir(home, profile, fallback); err != nil {
		return "", nil, err
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

// profileDir is the folder a --profile names: a name is kept in the data
// dir's profiles/, a path is a folder of the person's own; empty is
// fallback in the data dir.
func profileDir(home, profile, fallback string) (string, error) {
	switch {
	case profile == "":
		return filepath.Join(home, fallback), nil
	case skills.ValidProfile(profile):
		return filepath.Join(home, "profiles", profile), nil
	case strings.ContainsAny(profile, `/\`):
		return profile, nil
	}
	return "", fmt.Errorf("--profile %q: name a profile with letters, digits, '-' and '_' (kept in the data dir), or give a folder's path", profile)
}
