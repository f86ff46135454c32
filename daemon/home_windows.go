package daemon

import (
	"errors"
	"os"
)

// userDataDir is the per-user, per-machine application data folder: recordings
// must not roam to other machines with the profile.
func userDataDir() (string, error) {
	if d := os.Getenv("LocalAppData"); d != "" {
		return d, nil
	}
	return "", errors.New("%LocalAppData% is not set")
}
