//go:build !linux && !darwin && !windows

package floor

import (
	"context"
	"errors"
	"log/slog"
	"runtime"

	"github.com/reprise-dev/reprise/capture"
)

// Source is the desktop floor; there is none on this OS.
type Source struct{}

var errUnsupported = errors.New("reprise has no desktop floor on " + runtime.GOOS)

func New(string, *slog.Logger) *Source { return &Source{} }

func (s *Source) Name() string       { return "floor" }
func (s *Source) Channels() []string { return []string{capture.ChannelFloor} }
func (s *Source) Available() (bool, string) {
	return false, errUnsupported.Error()
}
func (s *Source) Start(context.Context, capture.Session, capture.Sink) error { return errUnsupported }
func (s *Source) Stop() error                                                { return nil }
