package floor

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/axmac"
	"github.com/reprise-dev/reprise/capture/frames"
	"github.com/reprise-dev/reprise/capture/quartz"
)

// Source is the macOS floor: the Quartz event tap with the frame ring over
// CGWindowList grabs and AX enrichment, for the length of each recording.
// It is built and vetted, and has never run on a Mac.
type Source struct {
	log *slog.Logger

	mu    sync.Mutex
	inner *quartz.Source
	ring  *frames.Ring
	ax    *axmac.Enricher
}

var _ capture.Source = (*Source)(nil)

// New returns the macOS floor; display is ignored.
func New(_ string, log *slog.Logger) *Source {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Source{log: log}
}

func (s *Source) Name() string { return "quartz" }

// Channels: the floor, and AX enrichment once the person allowed it.
func (s *Source) Channels() []string {
	if axmac.IsTrusted() {
		return []string{capture.ChannelFloor, capture.ChannelDesktopAX}
	}
	return []string{capture.ChannelFloor}
}

func (s *Source) Available() (bool, string) { return quartz.New(quartz.Options{}).Available() }

func (s *Source) Start(ctx context.Context, sess capture.Session, sink capture.Sink) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	opts := quartz.Options{Logger: s.log}
	if g, err := quartz.NewGrabber(); err == nil {
		s.ring = frames.NewRing(g, frames.RingOptions{Logger: s.log})
		s.ring.Start(ctx)
		opts.Frames = s.ring
	} else {
		s.log.Warn("desktop steps get no frames", "err", err)
	}
	if ax, err := axmac.New(axmac.Options{Logger: s.log}); err == nil {
		s.ax = ax
		opts.Enricher = ax
	} else {
		s.log.Info("desktop steps get no accessibility data (kind: none)", "reason", err)
	}
	s.inner = quartz.New(opts)
	if err := s.inner.Start(ctx, sess, secretSink{sink, axmac.IsPassword}); err != nil {
		s.release()
		return fmt.Errorf("start the macOS floor: %w", err)
	}
	return nil
}

func (s *Source) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	if s.inner != nil {
		err = s.inner.Stop()
	}
	s.release()
	return err
}

func (s *Source) release() {
	if s.ring != nil {
		s.ring.Stop()
	}
	if s.ax != nil {
		_ = s.ax.Close()
	}
	s.inner, s.ring, s.ax = nil, nil, nil
}
