package floor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/winhook"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/msaa"
	"github.com/reprise-dev/reprise/platform/ax/uia"
	"github.com/reprise-dev/reprise/platform/screen"
)

// Source is the Windows floor: the low-level hooks with the frame ring over
// BitBlt grabs, and enrichment from UI Automation, else MSAA, for the
// length of each recording.
type Source struct {
	base
}

var _ capture.Source = (*Source)(nil)

// New returns the Windows floor; display is ignored.
func New(_ string, log *slog.Logger) *Source {
	return &Source{base: base{log: orDiscard(log)}}
}

func (s *Source) Name() string { return winhook.Name }

// Channels: the floor, and accessibility enrichment, which every Windows
// desktop has (MSAA at least).
func (s *Source) Channels() []string {
	return []string{capture.ChannelFloor, capture.ChannelDesktopAX}
}

func (s *Source) Available() (bool, string) { return winhook.New(winhook.Options{}).Available() }

func (s *Source) Start(ctx context.Context, sess capture.Session, sink capture.Sink) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := &recording{}
	var opts winhook.Options
	opts.Logger = s.log
	if g, err := screen.NewGDI(); err == nil {
		opts.Frames = rec.frames(ctx, g, g.Close, s.log)
	} else {
		s.log.Warn("desktop steps get no frames", "err", err)
	}
	if ax, err := newTreeEnricher(s.log); err == nil {
		rec.closeAfter(ax.Close)
		opts.Enricher = ax
	} else {
		s.log.Info("desktop steps get no accessibility data (kind: none)", "reason", err)
	}
	rec.inner = winhook.New(opts)
	if err := rec.inner.Start(ctx, sess, secretSink{sink, isPassword}); err != nil {
		rec.release()
		return fmt.Errorf("start the Windows floor: %w", err)
	}
	s.rec = rec
	return nil
}

func isPassword(e *events.Enrichment) bool { return uia.IsPassword(e) || msaa.IsPassword(e) }

// treeEnricher asks UI Automation first and MSAA where UIA cannot read the
// window (or is missing, as under Wine).
type treeEnricher struct {
	uia  *uia.Client // nil when UIA is unavailable
	msaa *msaa.Enricher
}

func newTreeEnricher(log *slog.Logger) (*treeEnricher, error) {
	var e treeEnricher
	var errs []error
	if c, err := uia.New(uia.Options{Logger: log}); err == nil {
		e.uia = c
	} else {
		errs = append(errs, err)
	}
	if m, err := msaa.New(msaa.Options{Logger: log}); err == nil {
		e.msaa = m
	} else {
		errs = append(errs, err)
	}
	if e.uia == nil && e.msaa == nil {
		return nil, errors.Join(errs...)
	}
	return &e, nil
}

func (e *treeEnricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	var uiaErr error
	if e.uia != nil {
		en, err := e.uia.At(ctx, x, y)
		if err == nil && en != nil {
			return en, nil
		}
		uiaErr = err
	}
	if e.msaa == nil {
		return nil, uiaErr
	}
	return e.msaa.At(ctx, x, y)
}

func (e *treeEnricher) Close() error {
	var errs []error
	if e.uia != nil {
		errs = append(errs, e.uia.Close())
	}
	if e.msaa != nil {
		errs = append(errs, e.msaa.Close())
	}
	return errors.Join(errs...)
}
