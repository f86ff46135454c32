//go:build !linux && !windows && !darwin

package screen

import (
	"fmt"
	"runtime"
)

// Open fails: there is no screen grabber on this system.
func Open(string) (Grabber, func() error, error) {
	return nil, nil, fmt.Errorf("%w on %s", ErrUnavailable, runtime.GOOS)
}
