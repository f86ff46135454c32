// Package floor is the desktop floor of this OS (SPEC section 9): input
// events assembled into steps, each with its pre-action frame and, where the
// accessibility tree knows the element, its role and label. On Linux that
// is X11 RECORD, the frame ring over X11 grabs, and AT-SPI; on Windows the
// low-level hooks, BitBlt frames, and UI Automation else MSAA; on macOS
// the Quartz event tap, CGWindowList frames and AX.
package floor

import (
	"context"
	"log/slog"
	"sync"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/frames"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/screen"
)

// base is what each OS's floor Source shares: its logger and the recording
// it runs, stopped by Stop.
type base struct {
	log *slog.Logger

	mu  sync.Mutex
	rec *recording // nil when not recording
}

func orDiscard(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return log
}

// Stop ends the recording: a fill still being typed is committed first.
func (b *base) Stop() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	err := b.rec.stop()
	b.rec = nil
	return err
}

// recording is what one recording started: this OS's input source, the
// frame ring feeding it, and what to close once both have stopped.
type recording struct {
	inner   capture.Source
	ring    *frames.Ring
	closers []func() error
}

// frames starts the ring over g for the recording and returns it as the
// source's frames; closeGrab (if not nil) runs once the ring has stopped.
func (r *recording) frames(ctx context.Context, g screen.Grabber, closeGrab func() error, log *slog.Logger) *frames.Ring {
	r.ring = frames.NewRing(g, frames.RingOptions{Logger: log})
	r.ring.Start(ctx)
	r.closeAfter(closeGrab)
	return r.ring
}

func (r *recording) closeAfter(c func() error) {
	if c != nil {
		r.closers = append(r.closers, c)
	}
}

// stop stops the source (a fill being typed is committed), then the ring,
// then closes the rest. Safe on nil: Stop without Start.
func (r *recording) stop() error {
	if r == nil {
		return nil
	}
	var err error
	if r.inner != nil {
		err = r.inner.Stop()
	}
	r.release()
	return err
}

func (r *recording) release() {
	if r.ring != nil {
		r.ring.Stop()
	}
	for _, c := range r.closers {
		_ = c()
	}
}

// secretSink drops the value of a step the accessibility tree calls a
// password field, before anything else sees it (SPEC 8).
type secretSink struct {
	capture.Sink
	isPassword func(*events.Enrichment) bool // this OS's tree's test
}

func (s secretSink) Emit(st events.Step) error {
	if st.Enrichment != nil && s.isPassword(st.Enrichment) && st.Value != nil {
		st.Value = &events.Value{Type: events.ValueSecret}
		st.Redacted = true
	}
	return s.Sink.Emit(st)
}

// PutFrame passes frames on to a sink that keeps them.
func (s secretSink) PutFrame(ctx context.Context, ref string, img []byte) error {
	if fs, ok := s.Sink.(capture.FrameSink); ok {
		return fs.PutFrame(ctx, ref, img)
	}
	return nil
}
