//go:build !linux

package x11

import (
	"context"
	"errors"
	"runtime"

	"github.com/reprise-dev/reprise/capture"
)

// errUnsupported is Start's error off Linux.
var errUnsupported = errors.New("x11 capture is not supported on " + runtime.GOOS)

// Available reports that X11 capture runs on Linux only.
func (s *Source) Available() (bool, string) {
	return false, errUnsupported.Error() + "; use this system's own floor source"
}

// Start fails: there is no X11 capture on this system.
func (s *Source) Start(context.Context, capture.Session, capture.Sink) error {
	return errUnsupported
}
