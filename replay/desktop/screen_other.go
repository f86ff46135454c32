//go:build !linux && !windows && !darwin

package desktop

import (
	"errors"
	"runtime"
)

// NewScreen fails: there is no screen grabber on this system.
func NewScreen(string) (Grabber, func() error, error) {
	return nil, nil, errors.New("no screen grabber on " + runtime.GOOS)
}
