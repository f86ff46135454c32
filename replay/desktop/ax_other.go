//go:build !linux && !windows && !darwin

package desktop

import (
	"errors"
	"log/slog"
	"runtime"
)

// NewAX fails: the executor has no accessibility tree on this system.
func NewAX(string, *slog.Logger) (AX, func() error, error) {
	return nil, nil, errors.New("the desktop executor has no accessibility tree on " + runtime.GOOS)
}
