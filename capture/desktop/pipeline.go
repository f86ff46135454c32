package desktop

import (
	"context"
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
)

// PipelineOptions configure a Pipeline.
type PipelineOptions struct {
	// Frames, if set and the sink is a capture.FrameSink, gives each step
	// the newest frame from before its first input event.
	Frames Frames
	// Enricher, if set, is asked about the element at each press and step.
	Enricher Enricher
	// EnrichTimeout bounds one Enricher call; 0 means DefaultEnrichTimeout.
	EnrichTimeout time.Duration
	// QueueSize bounds the events waiting to be assembled; 0 means
	// DefaultQueueSize.
	QueueSize int
	// Logger receives warnings; nil discards them.
	Logger *slog.Logger
}

// Pipeline carries a desktop source's input from its callback to the sink:
// the callback stamps each event and hands it to Feed, which never waits;
// one goroutine (Run) prepares each event as Raw (keysyms, the window),
// assembles, attaches frames and enrichment, and emits. E is the source's own
// event: a RECORD event here, a Quartz or a Windows hook event elsewhere.
type Pipeline[E any] struct {
	in      chan E
	sink    capture.Sink
	frames  Frames
	fsink   capture.FrameSink // the sink's frame side, when it has one and Frames is set
	enrich  Enricher
	timeout time.Duration
	// prepare appends the Raw events e stands for to dst; it runs in the
	// emitting goroutine, so it may ask the window system.
	prepare   func(dst []Raw, e E) []Raw
	raws      []Raw
	log       *slog.Logger
	assembler Assembler
	// pressed are the last button presses' points and elements: a fill is
	// typed into the field a click focused, and is often committed by the
	// next click (OK), when that field may be gone from the tree.
	pressed []pressed
	// choices is enrich, when it knows choice controls; open is a combo
	// box a press opened, whose pick comes with the next press.
	choices ChoiceEnricher
	open    *openCombo
	// check is a check box pressed, whose click is emitted with the state
	// it left once the next input comes.
	check *openCombo
	// observe is enrich, when it can read a window whole; shown what each
	// window showed when last read, by title.
	observe Observer
	shown   map[string][]string
	// snap is the window read after the person's input, when enrich can
	// list a window: what names a press its own lookup came too late for.
	snap *snapshot

	events        atomic.Uint64
	droppedEvents atomic.Uint64
	steps         atomic.Uint64
	droppedSteps  atomic.Uint64
}

// NewPipeline returns a pipeline into sink; prepare turns each fed event
// into raw events for the assembler.
func NewPipeline[E any](sink capture.Sink, opts PipelineOptions, prepare func(dst []Raw, e E) []Raw) *Pipeline[E] {
	if opts.QueueSize <= 0 {
		opts.QueueSize = DefaultQueueSize
	}
	if opts.EnrichTimeout <= 0 {
		opts.EnrichTimeout = DefaultEnrichTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	p := &Pipeline[E]{
		in:      make(chan E, opts.QueueSize),
		sink:    sink,
		enrich:  opts.Enricher,
		timeout: opts.EnrichTimeout,
		prepare: prepare,
		log:     opts.Logger,
	}
	p.choices, _ = opts.Enricher.(ChoiceEnricher)
	p.observe, _ = opts.Enricher.(Observer)
	p.shown = map[string][]string{}
	if src, ok := opts.Enricher.(Snapshotter); ok {
		p.snap = &snapshot{src: src}
	}
	if fs, ok := sink.(capture.FrameSink); ok && opts.Frames != nil {
		p.frames, p.fsink = opts.Frames, fs
	}
	return p
}

// Feed queues e without waiting; when the queue is full e is dropped and
// counted. It is safe to call from an input callback.
func (p *Pipeline[E]) Feed(e E) {
	p.events.Add(1)
	select {
	case p.in <- e:
	default:
		p.droppedEvents.Add(1)
	}
}

// Close says no more events will be fed: Run flushes what is pending and
// returns. Feed must not be called after Close.
func (p *Pipeline[E]) Close() { close(p.in) }

// Run assembles and emits until Close, then flushes what is pending (a held
// click, a fill not yet committed). ctx bounds frame storage and
// enrichment; it is not what ends Run.
func (p *Pipeline[E]) Run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	defer p.snap.wait()
	for {
		if d, ok := p.assembler.Deadline(); ok {
			timer.Reset(time.Until(d))
		}
		select {
		case e, ok := <-p.in:
			if !ok {
				p.flushChoice(ctx)
				p.emitAll(ctx, p.assembler.Flush())
				return
			}
			p.raws = p.prepare(p.raws[:0], e)
			for _, r := range p.raws {
				if r.Kind == ButtonPress || r.Kind == KeyPress {
					p.settleCheck(ctx)
					p.seeWindow(ctx, r.Window.Title)
				}
				if r.Kind == ButtonPress && r.Button <= 3 && p.enrich != nil {
					// Now, not when the click is final: the element may be
					// gone once the click has done its work.
					r.Enrichment = p.enrichAt(ctx, r.X, r.Y)
					if r.Enrichment == nil {
						r.Enrichment = p.snap.at(r.Window.Title, r.X, r.Y)
					}
					if r.Enrichment != nil {
						p.pressed = append(p.pressed, pressed{r.X, r.Y, r.Enrichment})
						if len(p.pressed) > 4 {
							p.pressed = p.pressed[1:]
						}
					}
				}
				if r.Kind == ButtonPress || r.Kind == KeyPress {
					p.snap.refresh(ctx, r.Window.Title, 10*p.timeout)
				}
				if r.Kind == ButtonPress && p.choice(ctx, r) {
					continue // taken into a choice: no click of its own
				}
				p.emitAll(ctx, p.assembler.Add(r))
			}
		case now := <-timer.C:
			p.emitAll(ctx, p.assembler.Tick(now))
		}
		timer.Stop()
	}
}

func (p *Pipeline[E]) emitAll(ctx context.Context, steps []Assembled) {
	for _, f := range steps {
		p.emit(ctx, f)
	}
}

func (p *Pipeline[E]) emit(ctx context.Context, f Assembled) {
	step := f.Step
	if p.fsink != nil {
		step.ScreenshotRef = p.frame(ctx, f.At)
	}
	if step.Enrichment == nil && step.Action == events.ActionFill && len(step.Cursor) == 2 {
		step.Enrichment = p.pressedAt(step.Cursor[0], step.Cursor[1])
	}
	// A click is named only by what its press found: once it has acted,
	// what lies at its point (the list an OK filled) is not what it hit.
	if step.Enrichment == nil && p.enrich != nil && len(step.Cursor) == 2 && step.Action != events.ActionClick {
		step.Enrichment = p.enrichAt(ctx, step.Cursor[0], step.Cursor[1])
	}
	if commits(step) {
		step.Effect = p.effect(ctx, step)
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
func (p *Pipeline[E]) frame(ctx context.Context, at time.Time) string {
	png, ok := p.frames.Before(at)
	if !ok {
		return ""
	}
	ref := events.NewFrameRef()
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
func (p *Pipeline[E]) pressedAt(x, y int) *events.Enrichment {
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
func (p *Pipeline[E]) enrichAt(ctx context.Context, x, y int) *events.Enrichment {
	ectx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	e, err := p.enrich.At(ectx, x, y)
	if err != nil {
		p.log.Debug("enrich step", logKeyErr, err)
		return nil
	}
	return e
}

// Stats returns the pipeline's counts so far.
func (p *Pipeline[E]) Stats() Stats {
	return Stats{
		Events:        p.events.Load(),
		DroppedEvents: p.droppedEvents.Load(),
		Steps:         p.steps.Load(),
		DroppedSteps:  p.droppedSteps.Load(),
	}
}
