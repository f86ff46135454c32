//go:build !windows

package winhook

import (
	"context"
	"errors"
	"runtime"

	"github.com/reprise-dev/reprise/capture"
)

// errUnsupported is Start's error off Windows.
var errUnsupported = errors.New("winhook capture is not supported on " + runtime.GOOS)

// Available reports that the Windows hooks run on Windows only.
func (s *Source) Available() (bool, string) {
	return false, errUnsupported.Error() + "; use this system's own floor source"
}

// Start fails: there are no Windows hooks on this system.
func (s *Source) Start(context.Context, capture.Session, capture.Sink) error {
	return errUnsupported
}
