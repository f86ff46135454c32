//go:build !linux && !windows

package desktop

import (
	"errors"
	"log/slog"
	"runtime"
)

// NewAX fails: the executor has no accessibility tree on this system yet
// (on macOS it replays by input at recorded points).
func NewAX(string, *slog.Logger) (AX, func() error, error) {
	return nil, nil, errors.New("the desktop executor has no accessibility tree on " + runtime.GOOS + " yet")
}
