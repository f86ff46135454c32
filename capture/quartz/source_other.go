//go:build !darwin

package quartz

import (
	"context"

	"github.com/reprise-dev/reprise/capture"
)

// session is empty here: nothing ever starts.
type session struct{ pipe *pipeline }

// Available reports that Quartz capture runs on macOS only.
func (s *Source) Available() (bool, string) {
	return false, ErrUnsupported.Error() + "; use this system's own floor source"
}

// Start fails: there is no Quartz here.
func (s *Source) Start(context.Context, capture.Session, capture.Sink) error {
	return ErrUnsupported
}

// Stop does nothing: nothing was started.
func (s *Source) Stop() error { return nil }

// RequestListenAccess is macOS only.
func RequestListenAccess() bool { return false }
