package floor

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/quartz"
	"github.com/reprise-dev/reprise/platform/ax/axmac"
	"github.com/reprise-dev/reprise/platform/screen"
)

// Source is the macOS floor: the Quartz event tap with the frame ring over
// CGWindowList grabs and AX enrichment, for the length of each recording.
// It is built and vetted, and has never run on a Mac.
type Source struct {
	base
}

var _ capture.Source = (*Source)(nil)

// New returns the macOS floor; display is ignored.
func New(_ string, log *slog.Logger) *Source {
	return &Source{base: base{log: orDiscard(log)}}
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
	rec := &recording{}
	opts := quartz.Options{Logger: s.log}
	if g, err := screen.NewQuartz(); err == nil {
		opts.Frames = rec.frames(ctx, g, nil, s.log)
	} else {
		s.log.Warn("desktop steps get no frames", "err", err)
	}
	if ax, err := axmac.New(axmac.Options{Logger: s.log}); err == nil {
		rec.closeAfter(ax.Close)
		opts.Enricher = ax
	} else {
		s.log.Info("desktop steps get no accessibility data (kind: none)", "reason", err)
	}
	rec.inner = quartz.New(opts)
	if err := rec.inner.Start(ctx, sess, secretSink{sink, axmac.IsPassword}); err != nil {
		rec.release()
		return fmt.Errorf("start the macOS floor: %w", err)
	}
	s.rec = rec
	return nil
}
