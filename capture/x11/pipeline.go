package x11

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// Log keys.
const (
	logKeyErr = "err"
	logKeyN   = "n"
)

// pipeline carries input from the callback to the sink: the callback stamps
// each event and hands it to a bounded channel without ever waiting; one
// goroutine (run) resolves, folds, attaches frames and enrichment, and emits.
type pipeline struct {
	in      chan Raw
	sink    capture.Sink
	frames  Frames
	fsink   capture.FrameSink // the sink's frame side, when it has one and Frames is set
	enrich  Enricher
	timeout time.Duration
	// resolve fills in what the callback leaves out (keysyms, the window);
	// it runs in the emitting goroutine, so it may ask the X server.
	resolve func(*Raw)
	log     *slog.Logger
	folder  Folder
	// pressed are the last button presses' points and elements: a fill is
	// typed into the field a click focused, and is often committed by the
	// next click (OK), when that field may be gone from the tree.
	pressed []pressed

	events        atomic.Uint64
	droppedEvents atomic.Uint64
	steps         atomic.Uint64
	droppedSteps  atomic.Uint64
}

func newPipeline(sink capture.Sink, opts Options, resolve func(*Raw)) *pipeline {
	p := &pipeline{
		in:      make(chan Raw, opts.QueueSize),
		sink:    sink,
		enrich:  opts.Enricher,
		timeout: opts.EnrichTimeout,
		resolve: resolve,
		log:     opts.Logger,
	}
	if fs, ok := sink.(capture.FrameSink); ok && opts.Frames != nil {
		p.frames, p.fsink = opts.Frames, fs
	}
	return p
}

// onWire is the input callback: it parses one event off the RECORD stream,
// stamps it and queues it. It never blocks; when the queue is full the event
// is dropped and counted.
func (p *pipeline) onWire(ev []byte, order binary.ByteOrder) {
	r, ok := parseEvent(ev, order)
	if !ok {
		return
	}
	r.Time = time.Now()
	p.feed(r)
}

func (p *pipeline) feed(r Raw) {
	p.events.Add(1)
	select {
	case p.in <- r:
	default:
		p.droppedEvents.Add(1)
	}
}

// run folds and emits until in is closed, then flushes what is pending (a
// held click, a fill not yet committed). ctx bounds frame storage and
// enrichment; it is not what ends run.
func (p *pipeline) run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		if d, ok := p.folder.Deadline(); ok {
			timer.Reset(time.Until(d))
		}
		select {
		case r, ok := <-p.in:
			if !ok {
				p.emitAll(ctx, p.folder.Flush())
				return
			}
			if p.resolve != nil {
				p.resolve(&r)
			}
			if r.Kind == ButtonPress && r.Button <= 3 && p.enrich != nil {
				// Now, not when the click is final: the element may be
				// gone once the click has done its work.
				r.Enrichment = p.enrichAt(ctx, r.X, r.Y)
				if r.Enrichment != nil {
					p.pressed = append(p.pressed, pressed{r.X, r.Y, r.Enrichment})
					if len(p.pressed) > 4 {
						p.pressed = p.pressed[1:]
					}
				}
			}
			p.emitAll(ctx, p.folder.Add(r))
		case now := <-timer.C:
			p.emitAll(ctx, p.folder.Tick(now))
		}
		timer.Stop()
	}
}

func (p *pipeline) emitAll(ctx context.Context, steps []Folded) {
	for _, f := range steps {
		p.emit(ctx, f)
	}
}

func (p *pipeline) emit(ctx context.Context, f Folded) {
	step := f.Step
	if p.fsink != nil {
		step.ScreenshotRef = p.frame(ctx, f.At)
	}
	if step.Enrichment == nil && step.Action == events.ActionFill && len(step.Cursor) == 2 {
		step.Enrichment = p.pressedAt(step.Cursor[0], step.Cursor[1])
	}
	if step.Enrichment == nil && p.enrich != nil && len(step.Cursor) == 2 {
		step.Enrichment = p.enrichAt(ctx, step.Cursor[0], step.Cursor[1])
	}
	p.steps.Add(1)
	switch err := p.sink.Emit(step); {
	case errors.Is(err, capture.ErrSinkFull):
		p.droppedSteps.Add(1)
	case err != nil && !errors.Is(err, capture.ErrSinkClosed):
		p.log.Warn("emit step", logKeyErr, err)
	}
}

// frame stores the newest frame from before at and returns its ref, or ""
// when there is none or it could not be stored.
func (p *pipeline) frame(ctx context.Context, at time.Time) string {
	png, ok := p.frames.Before(at)
	if !ok {
		return ""
	}
	ref := newRef()
	// Stopping must not lose the last frames: storage gets its own bound.
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := p.fsink.PutFrame(pctx, ref, png); err != nil {
		p.log.Warn("store pre-action frame", logKeyErr, err)
		return ""
	}
	return ref
}

type pressed struct {
	x, y int
	e    *events.Enrichment
}

// pressedAt is the element a recent press at x, y found, copied.
func (p *pipeline) pressedAt(x, y int) *events.Enrichment {
	for i := len(p.pressed) - 1; i >= 0; i-- {
		if pr := p.pressed[i]; pr.x == x && pr.y == y {
			e := *pr.e
			return &e
		}
	}
	return nil
}

// enrichAt asks the enricher about a point, briefly; a failure leaves the
// step on the floor alone.
func (p *pipeline) enrichAt(ctx context.Context, x, y int) *events.Enrichment {
	ectx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	e, err := p.enrich.At(ectx, x, y)
	if err != nil {
		p.log.Debug("enrich step", logKeyErr, err)
		return nil
	}
	return e
}

// newRef returns a fresh screenshot_ref.
func newRef() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "stub_" + hex.EncodeToString(b[:])
}

func (p *pipeline) stats() Stats {
	return Stats{
		Events:        p.events.Load(),
		DroppedEvents: p.droppedEvents.Load(),
		Steps:         p.steps.Load(),
		DroppedSteps:  p.droppedSteps.Load(),
	}
}
