package floor

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/capture/x11"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/screen"
)

// Source is the X11 floor: the x11 source with the frame ring and AT-SPI
// plugged in for the length of each recording.
type Source struct {
	display string
	base
}

var _ capture.Source = (*Source)(nil)

// New returns the floor for display ("" for $DISPLAY).
func New(display string, log *slog.Logger) *Source {
	return &Source{display: display, base: base{log: orDiscard(log)}}
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
	rec := &recording{}
	opts := x11.Options{Display: s.display}
	opts.Logger = s.log
	if g, err := screen.NewX11(s.display); err == nil {
		opts.Frames = rec.frames(ctx, g, g.Close, s.log)
	} else {
		s.log.Warn("desktop steps get no frames", "err", err)
	}
	if ax, err := atspi.New(atspi.Options{Display: s.display, Logger: s.log, Timeout: desktop.DefaultEnrichTimeout}); err == nil {
		rec.closeAfter(ax.Close)
		opts.Enricher = choiceEnricher{ax}
	} else {
		s.log.Info("desktop steps get no accessibility data (kind: none)", "reason", err)
	}
	rec.inner = x11.New(opts)
	if err := rec.inner.Start(ctx, sess, secretSink{sink, atspi.IsPassword}); err != nil {
		rec.release()
		return fmt.Errorf("start the X11 floor: %w", err)
	}
	s.rec = rec
	return nil
}
