//go:build !darwin

package quartz

import (
	"context"

	"github.com/reprise-dev/reprise/capture"
)

// Available reports that Quartz capture runs on macOS only.
func (s *Source) Available() (bool, string) {
	return false, ErrUnsupported.Error() + "; use this system's own floor source"
}

// Start fails: there is no Quartz here.
func (s *Source) Start(context.Context, capture.Session, capture.Sink) error {
	return ErrUnsupported
}

// RequestListenAccess is macOS only.
func RequestListenAccess() bool { return false }
