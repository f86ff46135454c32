//go:build !linux && !windows && !darwin

package ax

import (
	"errors"
	"log/slog"
	"runtime"
)

// Open fails: reprise reads no accessibility tree on this system.
func Open(string, *slog.Logger) (Tree, func() error, error) {
	return nil, nil, errors.New("the desktop executor has no accessibility tree on " + runtime.GOOS)
}
