//go:build !linux && !darwin && !windows

package daemon

import "os"

func userDataDir() (string, error) { return os.UserConfigDir() }
