package scripted

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// recSink keeps every step emitted into it and answers err.
type recSink struct {
	mu    sync.Mutex
	steps []events.Step
	err   error
	edit  func(*events.Step) // what a consumer does to a step after taking it
}

func (r *recSink) Emit(s events.Step) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.steps = append(r.steps, s)
	if r.edit != nil {
		r.edit(&r.steps[len(r.steps)-1])
	}
	return r.err
}

func (r *recSink) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.steps)
}

func (r *recSink) snapshot() []events.Step {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]events.Step(nil), r.steps...)
}

// waitLen waits until sink holds n steps, failing t after timeout.
func waitLen(t *testing.T, sink *recSink, n int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for sink.len() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d steps emitted within %v; want %d", sink.len(), timeout, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func started(t *testing.T, src *Source, sink capture.Sink) {
	t.Helper()
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_1", Mode: "demonstration"}, sink); err != nil {
		t.Fatalf("Start = %v; want nil", err)
	}
	t.Cleanup(func() { src.Stop() })
}

// timed writes steps stamped at ts to a file of lines in a temp dir.
func timed(t *testing.T, ts ...float64) string {
	t.Helper()
	var steps []events.Step
	for i, at := range ts {
		steps = append(steps, events.Step{Seq: uint64(i + 1), TS: at, Actor: events.ActorAgent,
			Action: events.ActionClick, Cursor: []int{i, i}, Outcome: events.OutcomeOK})
	}
	return writeLines(t, t.TempDir(), "timed.jsonl", steps)
}

func TestPlaysInOrder(t *testing.T) {
	want := formSteps(t)
	src := New("scripted", form, []string{capture.ChannelFloor, capture.ChannelBrowser}, Options{})
	sink := &recSink{}
	before := events.Stamp(time.Now())
	started(t, src, sink)
	waitLen(t, sink, len(want), 2*time.Second)
	time.Sleep(50 * time.Millisecond) // played once: nothing more comes
	got := sink.snapshot()
	if len(got) != len(want) || src.Played() != len(want) {
		t.Fatalf("played %d steps, Played() = %d; want %d once", len(got), src.Played(), len(want))
	}
	after := events.Stamp(time.Now())
	for i, s := range got {
		if s.Seq != 0 || s.Actor != events.ActorHuman || s.TS < before || s.TS > after {
			t.Errorf("step %d has seq %d, actor %q, ts %f; want 0, human, within [%f, %f]",
				i, s.Seq, s.Actor, s.TS, before, after)
		}
		if i > 0 && s.TS < got[i-1].TS {
			t.Errorf("step %d stamped %f, before step %d at %f; want the order of the file", i, s.TS, i-1, got[i-1].TS)
		}
		s.Seq, s.TS = want[i].Seq, want[i].TS
		if !reflect.DeepEqual(s, want[i]) {
			t.Errorf("step %d = %+v; want the file's %+v", i, s, want[i])
		}
	}
	if err := src.Stop(); err != nil {
		t.Errorf("Stop() = %v; want nil", err)
	}
}

func TestActorIsHuman(t *testing.T) {
	src := New("scripted", timed(t, 1, 2), []string{capture.ChannelFloor}, Options{})
	sink := &recSink{}
	started(t, src, sink)
	waitLen(t, sink, 2, time.Second)
	for i, s := range sink.snapshot() {
		if s.Actor != events.ActorHuman {
			t.Errorf("step %d played from an agent step has actor %q; want %q", i, s.Actor, events.ActorHuman)
		}
	}
}

func TestTiming(t *testing.T) {
	// Gaps of 0.1, 0.2 and 0.3 s: 0.6 s in all at real time.
	path := timed(t, 1000, 1000.1, 1000.3, 1000.6)
	for _, tc := range []struct {
		opts Options
		want time.Duration
	}{
		{Options{Speed: 1}, 600 * time.Millisecond},
		{Options{Speed: 2}, 300 * time.Millisecond},
		{Options{Speed: 4}, 150 * time.Millisecond},
		{Options{Speed: 0}, 0},
		{Options{Speed: 1, MaxGap: 20 * time.Millisecond}, 60 * time.Millisecond},
	} {
		src := New("scripted", path, []string{capture.ChannelFloor}, tc.opts)
		sink := &recSink{}
		started(t, src, sink)
		waitLen(t, sink, 4, 5*time.Second)
		steps := sink.snapshot()
		got := time.Duration((steps[3].TS - steps[0].TS) * float64(time.Second))
		// A timer never fires early; it may fire late on a loaded machine.
		if got < tc.want-5*time.Millisecond || got > tc.want+250*time.Millisecond {
			t.Errorf("%+v: first to last step took %v; want %v", tc.opts, got, tc.want)
		}
		src.Stop()
	}
}

func TestStopInterruptsLongGap(t *testing.T) {
	src := New("scripted", timed(t, 1000, 2000), []string{capture.ChannelFloor}, Options{Speed: 1})
	sink := &recSink{}
	started(t, src, sink)
	waitLen(t, sink, 1, time.Second)
	begin := time.Now()
	if err := src.Stop(); err != nil {
		t.Fatalf("Stop() = %v; want nil", err)
	}
	if d := time.Since(begin); d > 100*time.Millisecond {
		t.Errorf("Stop() in a %v wait took %v; want it at once", DefaultMaxGap, d)
	}
	time.Sleep(20 * time.Millisecond)
	if n := sink.len(); n != 1 || src.Played() != 1 {
		t.Errorf("after Stop, %d steps emitted, Played() = %d; want 1", n, src.Played())
	}
}

func TestContextEndsPlay(t *testing.T) {
	src := New("scripted", timed(t, 1000, 2000), []string{capture.ChannelFloor}, Options{Speed: 1})
	sink := &recSink{}
	ctx, cancel := context.WithCancel(context.Background())
	if err := src.Start(ctx, capture.Session{RecordingID: "rec_1"}, sink); err != nil {
		t.Fatal(err)
	}
	waitLen(t, sink, 1, time.Second)
	cancel()
	begin := time.Now()
	if err := src.Stop(); err != nil || time.Since(begin) > 100*time.Millisecond {
		t.Errorf("Stop() after cancel = %v in %v; want nil at once", err, time.Since(begin))
	}
	if n := sink.len(); n != 1 {
		t.Errorf("%d steps emitted after the context ended in the first gap; want 1", n)
	}
}

func TestLoopAndFreshCopies(t *testing.T) {
	want := formSteps(t)
	src := New("scripted", form, []string{capture.ChannelFloor}, Options{Speed: 1000, Loop: true})
	// The consumer blanks values in place, as redaction does: the next
	// round must still play the file's values.
	sink := &recSink{edit: func(s *events.Step) {
		if s.Value != nil {
			s.Value.Raw = ""
		}
		if e := s.Enrichment; e != nil && len(e.Selectors) > 0 {
			e.Selectors[0].Value = "blanked"
		}
		s.Cursor[0] = -1
	}}
	started(t, src, sink)
	waitLen(t, sink, 3*len(want), 5*time.Second)
	src.Stop()
	got := sink.snapshot()
	for i, s := range got {
		w := want[i%len(want)]
		if s.Action != w.Action || (w.Value != nil && s.Value.Raw != "") {
			t.Fatalf("step %d = %s; want the file's step %d, %s", i, s.Action, i%len(want), w.Action)
		}
	}
	sink.edit = nil
	sink.steps = nil
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_2"}, sink); err != nil {
		t.Fatalf("Start after Stop = %v; want nil", err)
	}
	waitLen(t, sink, len(want), 5*time.Second)
	src.Stop()
	for i, s := range sink.snapshot()[:len(want)] {
		if !reflect.DeepEqual(s.Value, want[i].Value) || !reflect.DeepEqual(s.Enrichment, want[i].Enrichment) ||
			!reflect.DeepEqual(s.Cursor, want[i].Cursor) {
			t.Errorf("step %d of the second session = %+v; want the file's %+v", i, s, want[i])
		}
	}
}

func TestStartTwice(t *testing.T) {
	src := New("scripted", form, []string{capture.ChannelFloor}, Options{Speed: 1, Loop: true})
	started(t, src, &recSink{})
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_2"}, &recSink{}); err == nil {
		t.Error("Start on a started source = nil; want an error")
	}
}

func TestClosedSinkEndsPlay(t *testing.T) {
	src := New("scripted", form, []string{capture.ChannelFloor}, Options{Loop: true})
	sink := &recSink{err: capture.ErrSinkClosed}
	started(t, src, sink)
	time.Sleep(50 * time.Millisecond)
	if n := sink.len(); n != 1 || src.Played() != 1 {
		t.Errorf("a source whose sink is closed emitted %d steps, Played() = %d; want 1", n, src.Played())
	}
}

func TestFullSinkKeepsPlaying(t *testing.T) {
	src := New("scripted", form, []string{capture.ChannelFloor}, Options{})
	sink := &recSink{err: capture.ErrSinkFull}
	started(t, src, sink)
	waitLen(t, sink, len(formSteps(t)), time.Second)
}

func TestNewCopiesChannels(t *testing.T) {
	chans := []string{capture.ChannelFloor}
	src := New("scripted", form, chans, Options{})
	chans[0] = "changed"
	src.Channels()[0] = "changed too"
	if got := src.Channels(); !reflect.DeepEqual(got, []string{capture.ChannelFloor}) {
		t.Errorf("Channels() = %v; want [floor], whatever callers do to the slices", got)
	}
	if ok, reason := New("scripted", form, chans, Options{Speed: math.NaN()}).Available(); ok {
		t.Errorf("Available() with Speed NaN = true, %q; want false", reason)
	}
}

func TestUnreadableFile(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	path := filepath.Join(t.TempDir(), "locked.json")
	if err := os.WriteFile(path, []byte("{}"), 0); err != nil {
		t.Fatal(err)
	}
	ok, reason := New("scripted", path, []string{capture.ChannelFloor}, Options{}).Available()
	if ok || reason != "trajectory file "+path+" cannot be read: permission denied" {
		t.Errorf("Available() = %v, %q; want false and that the file cannot be read", ok, reason)
	}
}

// framedSink keeps frames, and is full for its first `full` offers; it is
// an offerer, so a patient player waits for it.
type framedSink struct {
	recSink
	full   int
	offers int
	frames map[string][]byte
}

func (f *framedSink) Offer(s events.Step) error {
	f.mu.Lock()
	f.offers++
	full := f.offers <= f.full
	f.mu.Unlock()
	if full {
		return capture.ErrSinkFull
	}
	return f.recSink.Emit(s)
}

func (f *framedSink) PutFrame(_ context.Context, ref string, img []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.frames[ref] = img
	return nil
}

// TestPatientPlayWithFrames: a patient player waits out a full sink and
// every step arrives; frames in Options.Frames are kept before their step,
// and a step with no frame file plays without one.
func TestPatientPlayWithFrames(t *testing.T) {
	steps := formSteps(t)
	dir := t.TempDir()
	ref := steps[1].ScreenshotRef
	if err := os.WriteFile(filepath.Join(dir, ref+".png"), []byte("png bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	src := New("scripted", form, []string{capture.ChannelFloor}, Options{Patient: true, Frames: dir})
	sink := &framedSink{full: 5, frames: map[string][]byte{}}
	started(t, src, sink)
	waitLen(t, &sink.recSink, len(steps), 5*time.Second)
	sink.mu.Lock()
	defer sink.mu.Unlock()
	if len(sink.frames) != 1 || string(sink.frames[ref]) != "png bytes" {
		t.Errorf("frames kept: %d (%q for %s); want the one frame file", len(sink.frames), sink.frames[ref], ref)
	}
	for i, s := range sink.steps {
		if s.ScreenshotRef != steps[i].ScreenshotRef {
			t.Fatalf("step %d arrived out of order (%s, want %s)", i, s.ScreenshotRef, steps[i].ScreenshotRef)
		}
	}
}
