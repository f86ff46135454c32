package floor

import (
	"context"
	"fmt"
	"log/slog"
	"sync"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/atspi"
	"github.com/reprise-dev/reprise/capture/frames"
	"github.com/reprise-dev/reprise/capture/x11"
)

// Source is the X11 floor: the x11 source with the frame ring and AT-SPI
// plugged in for the length of each recording.
type Source struct {
	display string
	log     *slog.Logger

	mu    sync.Mutex
	inner *x11.Source
	ring  *frames.Ring
	grab  *frames.X11
	ax    *atspi.Enricher
}

var _ capture.Source = (*Source)(nil)

// New returns the floor for display ("" for $DISPLAY).
func New(display string, log *slog.Logger) *Source {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Source{display: display, log: log}
}

func (s *Source) Name() string { return "x11" }

// Channels: the floor, and accessibility enrichment where the bus is there.
func (s *Source) Channels() []string {
	if ok, _ := atspi.Available(atspi.Options{Display: s.display}); ok {
		return []string{capture.ChannelFloor, capture.ChannelDesktopAX}
	}
	return []string{capture.ChannelFloor}
}

func (s *Source) Available() (bool, string) {
	return x11.New(x11.Options{Display: s.display}).Available()
}

// Start grabs frames and resolves elements only while a recording runs.
func (s *Source) Start(ctx context.Context, sess capture.Session, sink capture.Sink) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	opts := x11.Options{Display: s.display, Logger: s.log}
	if g, err := frames.NewX11(s.display); err == nil {
		s.grab = g
		s.ring = frames.NewRing(g, frames.RingOptions{Logger: s.log})
		s.ring.Start(ctx)
		opts.Frames = s.ring
	} else {
		s.log.Warn("desktop steps get no frames", "err", err)
	}
	if ax, err := atspi.New(atspi.Options{Display: s.display, Logger: s.log}); err == nil {
		s.ax = ax
		opts.Enricher = ax
	} else {
		s.log.Info("desktop steps get no accessibility data (kind: none)", "reason", err)
	}
	s.inner = x11.New(opts)
	if err := s.inner.Start(ctx, sess, secretSink{sink, atspi.IsPassword}); err != nil {
		s.release()
		return fmt.Errorf("start the X11 floor: %w", err)
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

// release stops what Start started; s.mu is held.
func (s *Source) release() {
	if s.ring != nil {
		s.ring.Stop()
	}
	if s.grab != nil {
		_ = s.grab.Close()
	}
	if s.ax != nil {
		_ = s.ax.Close()
	}
	s.inner, s.ring, s.grab, s.ax = nil, nil, nil, nil
}
