// Package quartz is the macOS desktop floor source (SPEC section 9): a
// listen-only Quartz event tap (CGEventTapCreate, through purego, no cgo)
// sees mouse-downs and key-downs in every application; the callback stamps
// each event and queues it without waiting, and one goroutine translates it
// (Translator) and folds it with capture/x11's portable Folder, so that a
// step means the same on macOS as on Linux. Steps carry the frontmost
// application (NSWorkspace) and the window under the point or owning the
// keyboard (CGWindowListCopyWindowInfo), and optionally a pre-action frame
// and an accessibility enrichment (capture/axmac) from hooks.
//
// Everything that talks to macOS is in *_darwin.go and only compiles there;
// the key mapping, the translation, the window choice and the folding are
// portable and tested on every system. Elsewhere the source reports itself
// unavailable.
//
// Permissions: the tap needs Input Monitoring (or Accessibility) for the
// process; window titles need Screen Recording, without which steps carry
// the application but an empty window title; frames need Screen Recording.
package quartz

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/x11"
	"github.com/reprise-dev/reprise/events"
)

// Name is the source's name.
const Name = "quartz"

// Defaults for Options.
const (
	DefaultQueueSize     = 1024
	DefaultEnrichTimeout = 200 * time.Millisecond
)

// ErrUnsupported is returned off macOS.
var ErrUnsupported = errors.New("quartz capture is not supported on " + runtime.GOOS)

// Options configure a Source. The zero value records with no frames and no
// enrichment.
type Options struct {
	// Frames, if set and the sink is a capture.FrameSink, gives each step
	// the newest frame from before its first input event.
	Frames x11.Frames
	// Enricher, if set, is asked about the element at each step's point
	// (capture/axmac's Enricher fits).
	Enricher x11.Enricher
	// EnrichTimeout bounds one Enricher call; 0 means DefaultEnrichTimeout.
	EnrichTimeout time.Duration
	// QueueSize bounds the tapped events waiting to be folded; beyond it
	// the callback drops them (counted in Stats). 0 means DefaultQueueSize.
	QueueSize int
	// Logger receives the source's warnings; nil discards them.
	Logger *slog.Logger
}

// Stats count one session's input and output.
type Stats struct {
	Events        uint64 // tapped events the callback saw
	DroppedEvents uint64 // of those, dropped because folding fell behind
	Steps         uint64 // steps handed to the sink
	DroppedSteps  uint64 // of those, refused by a full sink
	Reenabled     uint64 // times macOS disabled the tap and it was re-enabled
}

// Source records the macOS desktop. It is safe for concurrent use; it can be
// started again after Stop. Only one Source runs a tap at a time per
// process.
type Source struct {
	opts Options

	mu   sync.Mutex // serializes Start and Stop
	sess *session
	last Stats
}

var _ capture.Source = (*Source)(nil)

// New returns a source for opts; it touches nothing until Available or
// Start.
func New(opts Options) *Source {
	return &Source{opts: opts.withDefaults()}
}

func (opts Options) withDefaults() Options {
	if opts.EnrichTimeout <= 0 {
		opts.EnrichTimeout = DefaultEnrichTimeout
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Logger = opts.Logger.WithGroup("quartz")
	return opts
}

// Name returns "quartz".
func (s *Source) Name() string { return Name }

// Channels returns the floor channel.
func (s *Source) Channels() []string { return []string{capture.ChannelFloor} }

// Stats returns the counts of the running session, or of the last one.
func (s *Source) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return s.sess.pipe.stats()
	}
	return s.last
}

// Log keys.
const logKeyErr = "err"

// pipeline carries tapped events from the callback to the sink: feed never
// waits; run translates, resolves the window, folds, attaches frames and
// enrichment, and emits.
type pipeline struct {
	in      chan Event
	sink    capture.Sink
	frames  x11.Frames
	fsink   capture.FrameSink
	enrich  x11.Enricher
	timeout time.Duration
	// resolve names the application and window of a raw event; it runs in
	// the folding goroutine, so it may ask the window server.
	resolve func(e Event, w *x11.Window)
	log     *slog.Logger
	tr      Translator
	folder  x11.Folder
	pressed []pressed

	events        atomic.Uint64
	droppedEvents atomic.Uint64
	steps         atomic.Uint64
	droppedSteps  atomic.Uint64
	reenabled     atomic.Uint64
}

type pressed struct {
	x, y int
	e    *events.Enrichment
}

func newPipeline(sink capture.Sink, opts Options, resolve func(Event, *x11.Window)) *pipeline {
	p := &pipeline{
		in:      make(chan Event, opts.QueueSize),
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

// feed queues e without waiting; a full queue drops it.
func (p *pipeline) feed(e Event) {
	p.events.Add(1)
	select {
	case p.in <- e:
	default:
		p.droppedEvents.Add(1)
	}
}

// run folds and emits until in is closed, then flushes what is pending.
func (p *pipeline) run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		if d, ok := p.folder.Deadline(); ok {
			timer.Reset(time.Until(d))
		}
		select {
		case e, ok := <-p.in:
			if !ok {
				p.emitAll(ctx, p.folder.Flush())
				return
			}
			var win x11.Window
			if p.resolve != nil {
				p.resolve(e, &win)
			}
			if win.ID == 0 {
				win.ID = e.WindowID
			}
			for _, r := range p.tr.Translate(e) {
				r.Window = win
				if r.Kind == x11.ButtonPress && p.enrich != nil {
					r.Enrichment = p.enrichAt(ctx, r.X, r.Y)
					if r.Enrichment != nil {
						p.pressed = append(p.pressed, pressed{r.X, r.Y, r.Enrichment})
						if len(p.pressed) > 4 {
							p.pressed = p.pressed[1:]
						}
					}
				}
				p.emitAll(ctx, p.folder.Add(r))
			}
		case now := <-timer.C:
			p.emitAll(ctx, p.folder.Tick(now))
		}
		timer.Stop()
	}
}

func (p *pipeline) emitAll(ctx context.Context, steps []x11.Folded) {
	for _, f := range steps {
		p.emit(ctx, f)
	}
}

func (p *pipeline) emit(ctx context.Context, f x11.Folded) {
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

func (p *pipeline) frame(ctx context.Context, at time.Time) string {
	png, ok := p.frames.Before(at)
	if !ok {
		return ""
	}
	ref := newRef()
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	if err := p.fsink.PutFrame(pctx, ref, png); err != nil {
		p.log.Warn("store pre-action frame", logKeyErr, err)
		return ""
	}
	return ref
}

func (p *pipeline) pressedAt(x, y int) *events.Enrichment {
	for i := len(p.pressed) - 1; i >= 0; i-- {
		if pr := p.pressed[i]; pr.x == x && pr.y == y {
			e := *pr.e
			return &e
		}
	}
	return nil
}

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

func (p *pipeline) stats() Stats {
	return Stats{
		Events:        p.events.Load(),
		DroppedEvents: p.droppedEvents.Load(),
		Steps:         p.steps.Load(),
		DroppedSteps:  p.droppedSteps.Load(),
		Reenabled:     p.reenabled.Load(),
	}
}
