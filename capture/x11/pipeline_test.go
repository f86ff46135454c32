package x11

import (
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/keys"
)

// usKeys is a slice of a US keymap, keycodes as Xvfb numbers them.
var usKeys = func() *keys.Keymap {
	m := &keys.Keymap{Min: 8, PerCode: 2, Syms: make([]keys.Keysym, 2*248)}
	set := func(code byte, plain, shifted keys.Keysym) {
		m.Syms[2*int(code-8)], m.Syms[2*int(code-8)+1] = plain, shifted
	}
	set(36, keys.KeyReturn, 0)
	set(37, keys.KeyControlL, 0)
	set(38, 'a', 'A')
	set(39, 's', 'S')
	set(50, keys.KeyShiftL, 0)
	return m
}()

const (
	codeReturn = 36
	codeCtrl   = 37
	codeA      = 38
	codeS      = 39
)

// form is the window every test event goes to.
var form = desktop.Window{ID: 1, App: "Zenity", Title: "New customer"}

func testResolve(r *desktop.Raw) {
	r.Sym, r.Shifted = usKeys.Lookup(r.Keycode)
	r.Window = form
}

type frameSink struct {
	*capture.Queue
	mu     sync.Mutex
	frames map[string][]byte
}

func (s *frameSink) PutFrame(_ context.Context, ref string, image []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames[ref] = image
	return nil
}

type fakeFrames struct {
	mu    sync.Mutex
	asked []time.Time
}

func (f *fakeFrames) Before(t time.Time) ([]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, t)
	return []byte("png-before"), true
}

type fakeEnricher struct{ fail bool }

func (e fakeEnricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	if _, ok := ctx.Deadline(); !ok {
		return nil, errors.New("no deadline")
	}
	if e.fail {
		return nil, errors.New("no accessibility tree here")
	}
	return &events.Enrichment{Kind: events.KindAX, Role: "push button", Label: "OK"}, nil
}

func testOptions(opts Options) Options { return New(opts).opts }

// play feeds wire events to the callback, lets the pipeline assemble them, and
// returns the steps it emitted.
func play(t *testing.T, opts Options, sink capture.Sink, q *capture.Queue, wire ...[]byte) []events.Step {
	t.Helper()
	p := newPipeline(sink, testOptions(opts), testResolve)
	done := make(chan struct{})
	go func() { defer close(done); p.Run(context.Background()) }()
	for _, ev := range wire {
		onWire(p)(ev, binary.LittleEndian)
	}
	p.Close()
	<-done
	q.Close()
	var got []events.Step
	_ = q.Run(context.Background(), func(s events.Step) error { got = append(got, s); return nil })
	return got
}

func TestPipelineFramesAndEnrichment(t *testing.T) {
	q := capture.NewQueue(16)
	sink := &frameSink{Queue: q, frames: map[string][]byte{}}
	frames := &fakeFrames{}
	before := time.Now()
	got := play(t, Options{PipelineOptions: desktop.PipelineOptions{Frames: frames, Enricher: fakeEnricher{}}}, sink, q,
		wireEvent(desktop.ButtonPress, 1, 10, 20), wireEvent(desktop.ButtonRelease, 1, 10, 20),
		wireEvent(desktop.KeyPress, codeA, 10, 20), wireEvent(desktop.KeyRelease, codeA, 10, 20),
		wireEvent(desktop.KeyPress, codeReturn, 10, 20))
	if acts := actions(got); acts != "click fill submit" {
		t.Fatalf("steps = %s; want click fill submit", acts)
	}
	for i, s := range got {
		if !strings.HasPrefix(s.ScreenshotRef, events.FrameRefPrefix) || string(sink.frames[s.ScreenshotRef]) != "png-before" {
			t.Errorf("step %d (%s): screenshot_ref %q; want a frame_ ref stored with PutFrame", i, s.Action, s.ScreenshotRef)
		}
		if s.Enrichment == nil || s.Enrichment.Label != "OK" {
			t.Errorf("step %d (%s): enrichment %+v; want the enricher's", i, s.Action, s.Enrichment)
		}
	}
	if len(frames.asked) != 3 || frames.asked[0].Before(before) {
		t.Errorf("Frames.Before asked at %v; want once per step, at its first event", frames.asked)
	}
}

func TestPipelineWithoutHooks(t *testing.T) {
	q := capture.NewQueue(16)
	// desktop.Frames without a FrameSink, and an enricher that fails: the floor
	// alone.
	got := play(t, Options{PipelineOptions: desktop.PipelineOptions{Frames: &fakeFrames{}, Enricher: fakeEnricher{fail: true}}}, q, q,
		wireEvent(desktop.ButtonPress, 3, 10, 20))
	if len(got) != 1 || got[0].ScreenshotRef != "" || got[0].Enrichment != nil {
		t.Fatalf("steps = %+v; want one click with no frame and no enrichment", got)
	}
	if err := got[0].Validate(); err != nil {
		t.Errorf("Validate() = %v; want nil", err)
	}
}

// lateEnricher cannot answer at first (a busy accessibility bus), then
// names what is at the point by then.
type lateEnricher struct {
	mu    sync.Mutex
	calls int
}

func (e *lateEnricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.calls++; e.calls == 1 {
		return nil, context.DeadlineExceeded
	}
	return &events.Enrichment{Kind: events.KindAX, Role: "list item", Label: "First Name | Ada"}, nil
}

// TestClickNeverNamedAfterItActed: a click whose element could not be read
// at its press stays on the floor alone. What is at its point once the
// click has done its work (the list an OK filled) is not what was clicked.
func TestClickNeverNamedAfterItActed(t *testing.T) {
	q := capture.NewQueue(16)
	got := play(t, Options{PipelineOptions: desktop.PipelineOptions{Enricher: &lateEnricher{}}}, q, q,
		wireEvent(desktop.ButtonPress, 1, 10, 20), wireEvent(desktop.ButtonRelease, 1, 10, 20))
	if len(got) != 1 || got[0].Action != events.ActionClick || got[0].Enrichment != nil {
		t.Fatalf("steps = %+v; want one click on the floor alone", got)
	}
}

func TestPipelineCountsDrops(t *testing.T) {
	q := capture.NewQueue(1)
	p := newPipeline(q, testOptions(Options{PipelineOptions: desktop.PipelineOptions{QueueSize: 2}}), testResolve)
	start := time.Now()
	for range 5 {
		onWire(p)(wireEvent(desktop.ButtonPress, 3, 1, 1), binary.LittleEndian)
	}
	if d := time.Since(start); d > 100*time.Millisecond {
		t.Errorf("5 callbacks into a full queue took %v; want them never to wait", d)
	}
	p.Close()
	p.Run(context.Background())
	want := desktop.Stats{Events: 5, DroppedEvents: 3, Steps: 2, DroppedSteps: 1}
	if got := p.Stats(); got != want {
		t.Errorf("stats() = %+v; want %+v", got, want)
	}
}

func actions(steps []events.Step) string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Action)
	}
	return strings.Join(out, " ")
}

// timedSink notes when each step is in the queue.
type timedSink struct {
	q    *capture.Queue
	done chan time.Time
}

func (s *timedSink) Emit(step events.Step) error {
	err := s.q.Emit(step)
	s.done <- time.Now()
	return err
}

// BenchmarkInputToQueue measures the floor's budget, "input event to queued
// step: p99 <= 50 µs": from a raw event entering the input callback to its
// assembled step being in a capture.Queue. The events are those that complete
// a step at once (a right click, the key of a chord, the second press of a
// double click, Enter committing a fill); a single left click is held for
// the double-click window by design and is not queueing latency.
func BenchmarkInputToQueue(b *testing.B) {
	q := capture.NewQueue(capture.DefaultQueueSize)
	go func() { _ = q.Run(context.Background(), func(events.Step) error { return nil }) }()
	defer q.Close()
	sink := &timedSink{q: q, done: make(chan time.Time, 4)}
	p := newPipeline(sink, testOptions(Options{PipelineOptions: desktop.PipelineOptions{Logger: slog.New(slog.DiscardHandler)}}), testResolve)
	done := make(chan struct{})
	go func() { defer close(done); p.Run(context.Background()) }()
	le := binary.LittleEndian
	// Each round: setup events (no step yet), then the trigger; steps is how
	// many steps the trigger completes.
	rounds := []struct {
		setup   [][]byte
		trigger []byte
		steps   int
		after   [][]byte
	}{
		{nil, wireEvent(desktop.ButtonPress, 3, 10, 10), 1, [][]byte{wireEvent(desktop.ButtonRelease, 3, 10, 10)}},
		{[][]byte{wireEvent(desktop.KeyPress, codeCtrl, 5, 5)}, wireEvent(desktop.KeyPress, codeS, 5, 5), 1,
			[][]byte{wireEvent(desktop.KeyRelease, codeS, 5, 5), wireEvent(desktop.KeyRelease, codeCtrl, 5, 5)}},
		{[][]byte{wireEvent(desktop.ButtonPress, 1, 50, 50), wireEvent(desktop.ButtonRelease, 1, 50, 50)},
			wireEvent(desktop.ButtonPress, 1, 50, 50), 1, [][]byte{wireEvent(desktop.ButtonRelease, 1, 50, 50)}},
		{[][]byte{wireEvent(desktop.KeyPress, codeA, 5, 5), wireEvent(desktop.KeyRelease, codeA, 5, 5)},
			wireEvent(desktop.KeyPress, codeReturn, 5, 5), 2, [][]byte{wireEvent(desktop.KeyRelease, codeReturn, 5, 5)}},
	}
	lat := make([]time.Duration, 0, b.N)
	cb := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := rounds[i%len(rounds)]
		for _, ev := range r.setup {
			onWire(p)(ev, le)
		}
		start := time.Now()
		onWire(p)(r.trigger, le)
		cb = append(cb, time.Since(start))
		var end time.Time
		for range r.steps {
			end = <-sink.done
		}
		lat = append(lat, end.Sub(start))
		for _, ev := range r.after {
			onWire(p)(ev, le)
		}
	}
	b.StopTimer()
	p.Close()
	<-done
	if s := p.Stats(); s.DroppedEvents > 0 {
		b.Fatalf("stats = %+v; want no dropped events", s)
	}
	slices.Sort(lat)
	slices.Sort(cb)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	b.ReportMetric(us(lat[len(lat)/2]), "p50-µs")
	b.ReportMetric(us(lat[len(lat)*99/100]), "p99-µs")
	b.ReportMetric(us(cb[len(cb)*99/100]), "callback-p99-µs")
}
