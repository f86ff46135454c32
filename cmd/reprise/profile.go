package main

import (
	"cmp"
	"errors"
	"fmt"
	"os"

	"github.com/reprise-dev/reprise/replay/browser"
)

// holdProfile resolves a --profile (a name kept in the data dir's
// profiles/, or a folder given by path; fallback when empty) and takes its
// lock for holder ("run run_...").
func holdProfile(home, profile, fallback, holder string) (dir string, release func(), err error) {
	if dir, err = profileDir(home, profile, fallback); err != nil {
		return "", nil, err
	}
	release, err = browser.HoldProfile(dir, fmt.Sprintf("%s (pid %d)", holder, os.Getpid()))
	var inUse *browser.ProfileInUseError
	if errors.As(err, &inUse) {
		return "", nil, fmt.Errorf("browser profile %s is in use by %s: wait for it to end, or pass another --profile", cmp.Or(profile, "(the default)"), inUse.Holder)
	}
	return dir, release, err
}

// profileDir is the folder a --profile names (browser.ProfileDir).
func profileDir(home, profile, fallback string) (string, error) {
	dir, err := browser.ProfileDir(home, profile, fallback)
	if errors.Is(err, browser.ErrProfileName) {
		return "", fmt.Errorf("--profile %q: name a profile with letters, digits, '-' and '_' (kept in the data dir), or give a folder's path", profile)
	}
	return dir, err
}
