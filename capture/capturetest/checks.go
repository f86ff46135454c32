package capturetest

import (
	"context"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
)

// act has the person (or the page) do something, if the source needs it.
func (s *suite) act(t *testing.T, src capture.Source) {
	t.Helper()
	if s.drive != nil {
		s.drive(t, src)
	}
}

// firstStep starts src on sink and waits until it has emitted once.
func (s *suite) firstStep(t *testing.T, ctx context.Context, src capture.Source, n int, sink *probeSink) {
	t.Helper()
	start(t, ctx, src, session(src, n), sink)
	s.act(t, src)
	if !waitFor(StepTimeout, func() bool { return sink.count() >= 1 }) {
		t.Fatalf("no step emitted within %v of Start; want at least one", StepTimeout)
	}
}

// checkedSession runs one session of src into a capture.Queue, waits for
// minSteps delivered steps, stops src, and checks every step emitted and
// delivered.
func (s *suite) checkedSession(t *testing.T, src capture.Source, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newCollector(ctx)
	probe := &probeSink{next: c.q}
	start(t, ctx, src, session(src, n), probe)
	s.act(t, src)
	if !waitFor(StepTimeout, func() bool { return c.count() >= s.minSteps }) {
		t.Fatalf("%d steps delivered through a capture.Queue within %v of Start; want at least %d",
			c.count(), StepTimeout, s.minSteps)
	}
	stop(t, src)
	c.finish(t)
	probe.mu.Lock()
	defer probe.mu.Unlock()
	probe.bad.report(t, "emitted")
}

// stepsArrive: Start, then valid steps of the session arrive through a
// capture.Queue.
func (s *suite) stepsArrive(t *testing.T) {
	s.checkedSession(t, s.newSource(t), 1)
}

// noEmitAfterStop: once Stop has returned, Emit is never called again, even
// when the person carries on.
func (s *suite) noEmitAfterStop(t *testing.T) {
	src := s.newSource(t)
	probe := &probeSink{}
	s.firstStep(t, context.Background(), src, 2, probe)
	stop(t, src)
	probe.markStopped()
	s.act(t, src)
	time.Sleep(Quiet)
	if n := probe.afterStopCount(); n > 0 {
		t.Errorf("%d Emit calls after Stop returned; want none", n)
	}
}

// stopTwice: a second Stop is harmless.
func (s *suite) stopTwice(t *testing.T) {
	src := s.newSource(t)
	s.firstStep(t, context.Background(), src, 3, &probeSink{})
	stop(t, src)
	stop(t, src)
}

// stopWithoutStart: Stop on a source never started is harmless, twice.
func (s *suite) stopWithoutStart(t *testing.T) {
	src := s.newSource(t)
	stop(t, src)
	stop(t, src)
}

// cancelStopsEmission: ending Start's ctx ends emission within StopBound,
// and Stop still works afterwards.
func (s *suite) cancelStopsEmission(t *testing.T) {
	src := s.newSource(t)
	probe := &probeSink{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s.firstStep(t, ctx, src, 4, probe)
	cancel()
	if !settles(probe, StopBound+Quiet) {
		t.Fatalf("still emitting %v after ctx was cancelled (%d calls so far); want quiet within %v",
			StopBound, probe.count(), StopBound)
	}
	before := probe.count()
	s.act(t, src)
	time.Sleep(Quiet)
	if after := probe.count(); after != before {
		t.Errorf("%d Emit calls after ctx was cancelled and emission had stopped; want none", after-before)
	}
	stop(t, src)
}

// fullSinkNeverBlocks: a sink that refuses every step (ErrSinkFull) neither
// stalls the source nor keeps Stop from returning promptly.
func (s *suite) fullSinkNeverBlocks(t *testing.T) {
	src := s.newSource(t)
	probe := &probeSink{full: true}
	start(t, context.Background(), src, session(src, 5), probe)
	s.act(t, src)
	if !waitFor(StepTimeout, func() bool { return probe.count() >= s.minSteps }) {
		t.Fatalf("%d Emit calls into a full sink within %v; want at least %d: a source goes on when steps are dropped",
			probe.count(), StepTimeout, s.minSteps)
	}
	begin := time.Now()
	stop(t, src)
	t.Logf("Stop with a full sink returned in %v", time.Since(begin))
}

// secondSession: after one session is stopped, a fresh source serves a
// second one fully (no hook, display or port left held by the first).
func (s *suite) secondSession(t *testing.T) {
	first := s.newSource(t)
	s.firstStep(t, context.Background(), first, 6, &probeSink{})
	stop(t, first)
	s.checkedSession(t, s.newSource(t), 7)
}
