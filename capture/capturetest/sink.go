package capturetest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// maxReported bounds how many bad steps a failure lists; the rest are
// counted.
const maxReported = 5

// problems collects what is wrong with steps, keeping the first few.
type problems struct {
	count int
	first []string
}

func (p *problems) add(problem string) {
	p.count++
	if len(p.first) < maxReported {
		p.first = append(p.first, problem)
	}
}

// report fails t if any step of those named by what had a problem.
func (p *problems) report(t *testing.T, what string) {
	t.Helper()
	if p.count > 0 {
		t.Errorf("%d %s steps break the Source contract; the first:\n\t%s",
			p.count, what, strings.Join(p.first, "\n\t"))
	}
}

// probeSink is the Sink a source under test emits into. It counts calls,
// notes those made after the test marked the source stopped, checks what the
// source itself must set in each step, and then refuses the step (full) or
// passes it on (next, if any).
type probeSink struct {
	next capture.Sink
	full bool

	mu        sync.Mutex
	calls     int
	stopped   bool
	afterStop int
	bad       problems
}

func (p *probeSink) Emit(step events.Step) error {
	p.mu.Lock()
	p.calls++
	if p.stopped {
		p.afterStop++
	}
	switch {
	case step.Seq != 0:
		p.bad.add(fmt.Sprintf("emitted step %d has seq %d; want 0 (the sink assigns it)", p.calls, step.Seq))
	case step.TS == 0:
		p.bad.add(fmt.Sprintf("emitted step %d has no ts; want the moment of the action", p.calls))
	}
	p.mu.Unlock()
	if p.full {
		return capture.ErrSinkFull
	}
	if p.next != nil {
		return p.next.Emit(step)
	}
	return nil
}

// count returns how many times Emit has been called.
func (p *probeSink) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

// markStopped is called once Stop has returned: from then on, every Emit
// breaks the contract.
func (p *probeSink) markStopped() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped = true
}

func (p *probeSink) afterStopCount() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.afterStop
}

// collector runs a capture.Queue and checks every step it delivers.
type collector struct {
	q         *capture.Queue
	notBefore float64 // no step may be stamped before the session began
	done      chan error

	mu  sync.Mutex
	n   int
	bad problems
}

func newCollector(ctx context.Context) *collector {
	c := &collector{
		q:         capture.NewQueue(capture.DefaultQueueSize),
		notBefore: events.Stamp(time.Now().Add(-tsSlack)),
		done:      make(chan error, 1),
	}
	go func() { c.done <- c.q.Run(ctx, c.deliver) }()
	return c
}

func (c *collector) deliver(step events.Step) error {
	now := events.Stamp(time.Now())
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	if err := step.Validate(); err != nil {
		c.bad.add(fmt.Sprintf("delivered step %d: Validate() = %v; want nil", c.n, err))
	} else if step.Seq != 0 {
		c.bad.add(fmt.Sprintf("delivered step %d has seq %d; want 0", c.n, step.Seq))
	} else if step.Actor != events.ActorHuman {
		c.bad.add(fmt.Sprintf("delivered step %d has actor %q; want %q", c.n, step.Actor, events.ActorHuman))
	} else if step.TS < c.notBefore || step.TS > now {
		c.bad.add(fmt.Sprintf("delivered step %d has ts %.3f; want the time of the action, in [%.3f, %.3f]",
			c.n, step.TS, c.notBefore, now))
	}
	return nil
}

func (c *collector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// finish closes the queue and waits for Run to deliver what is left.
func (c *collector) finish(t *testing.T) {
	t.Helper()
	c.q.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Queue.Run = %v; want nil after Close", err)
		}
	case <-time.After(StopBound):
		t.Fatalf("Queue.Run did not drain within %v of Close", StopBound)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bad.report(t, "delivered")
}

// start starts src and fails t unless Start returns nil within StartBound.
// Whatever happens, src is stopped when the test ends.
func start(t *testing.T, ctx context.Context, src capture.Source, sess capture.Session, sink capture.Sink) {
	t.Helper()
	t.Cleanup(func() { stopQuietly(src) })
	errc := make(chan error, 1)
	go func() { errc <- src.Start(ctx, sess, sink) }()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("Start(ctx, %+v, sink) = %v; want nil", sess, err)
		}
	case <-time.After(StartBound):
		t.Fatalf("Start did not return within %v; want it to return once capture runs", StartBound)
	}
}

// stop stops src and fails t unless Stop returns nil within StopBound.
func stop(t *testing.T, src capture.Source) {
	t.Helper()
	errc := make(chan error, 1)
	go func() { errc <- src.Stop() }()
	select {
	case err := <-errc:
		if err != nil {
			t.Errorf("Stop() = %v; want nil", err)
		}
	case <-time.After(StopBound):
		t.Fatalf("Stop() did not return within %v", StopBound)
	}
}

// stopQuietly is the cleanup's Stop: bounded, so a source that hangs in
// Stop fails its own check rather than the whole run.
func stopQuietly(src capture.Source) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		src.Stop()
	}()
	select {
	case <-done:
	case <-time.After(StopBound):
	}
}

// waitFor polls cond until it holds or timeout passes, and reports which.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// settles waits until p has had no Emit for Quiet, within timeout.
func settles(p *probeSink, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	last, since := p.count(), time.Now()
	for time.Since(since) < Quiet {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
		if n := p.count(); n != last {
			last, since = n, time.Now()
		}
	}
	return true
}
