package script

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"time"

	"github.com/dop251/goja"
)

// Memory bounds, and how quickly a run is stopped.
const (
	// DefaultMemoryLimit is how much a grant's runtime may add to the
	// daemon's live heap: room for a few full-desktop screenshots at once,
	// far from what a desktop script holds.
	DefaultMemoryLimit = 256 << 20
	// MinMemoryLimit is the least a limit is raised to: the engine's own
	// bookkeeping must fit.
	MinMemoryLimit = 16 << 20

	// heapEvery is how often a running script's heap is sampled: a read
	// of two runtime metrics, microseconds, so a bomb allocating a few GB
	// a second is caught tens of MB past its limit.
	heapEvery = 10 * time.Millisecond
	// forceGCEvery spaces the collections a run over its limit forces to
	// tell what it holds from its garbage.
	forceGCEvery = 100 * time.Millisecond
	// stopGrace is how long a run whose grant ended may finish on its own
	// (every host call already fails) before the engine is interrupted:
	// long enough for a run whose last action spent the budget to return,
	// short enough that Stop ends any script within a second.
	stopGrace = 250 * time.Millisecond
)

// heapGauge reads the daemon's Go heap. The heap is the process's, not a
// run's: a run is charged with the daemon's live heap over what it was
// when the grant's runtime began (base), so what the runtime keeps from
// one run to the next counts too. A daemon runs one script at a time (one
// grant per desktop, one run per grant: Busy), so that growth is the
// run's own, give or take what the daemon does beside it, which the limit
// leaves room for. When two runtimes run at once (a grant's run being
// interrupted while the next grant's starts), each is charged with the
// other's growth as well: either may be stopped, never neither.
type heapGauge struct {
	limit   uint64
	max     uint64 // base + limit
	samples []metrics.Sample
	cycles  uint64 // GC cycles when the run began: a collection after it measures the run
	forced  time.Time
}

// The runtime metrics the gauge reads, in its samples' order.
const (
	heapObjects = iota // every object on the heap, garbage included, as of now
	heapLive           // what the last collection kept
	gcCycles
)

func newHeapGauge(base, limit uint64) *heapGauge {
	g := &heapGauge{limit: limit, max: base + limit, samples: []metrics.Sample{
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/gc/heap/live:bytes"},
		{Name: "/gc/cycles/total:gc-cycle"},
	}}
	metrics.Read(g.samples)
	g.cycles = g.read(gcCycles)
	return g
}

func (g *heapGauge) read(i int) uint64 {
	if g.samples[i].Value.Kind() != metrics.KindUint64 {
		return 0 // a metric this Go does not have: never over
	}
	return g.samples[i].Value.Uint64()
}

// over says whether the heap holds more than the run may. Objects are
// read first, cheaply; only above the limit does the gauge ask what a
// collection kept, forcing one at most every forceGCEvery, so garbage a
// script churns is never charged as held.
func (g *heapGauge) over() bool {
	metrics.Read(g.samples)
	if g.read(heapObjects) <= g.max {
		return false
	}
	if g.read(gcCycles) > g.cycles && g.read(heapLive) > g.max {
		return true
	}
	if time.Since(g.forced) < forceGCEvery {
		return false
	}
	runtime.GC()
	g.forced = time.Now()
	metrics.Read(g.samples)
	return g.read(heapLive) > g.max
}

// settledHeap is the live heap after a collection: a runtime's base.
func settledHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// watch is what stops one run: its budget (ctx), its grant ending (done)
// and its heap. It interrupts the engine with the reason as an *Error and
// cancels the host calls' context; stop ends it and returns the reason,
// once nothing can interrupt the engine any more.
type watch struct {
	finished chan struct{}
	exited   chan struct{}
	why      *Error
}

func (r *Runtime) watch(ctx context.Context, hostCancel context.CancelFunc, done <-chan struct{}, heap *heapGauge) *watch {
	w := &watch{finished: make(chan struct{}), exited: make(chan struct{})}
	vm := r.vm
	interrupt := func(e *Error) {
		w.why = e
		hostCancel()
		vm.Interrupt(e)
	}
	go func() {
		defer close(w.exited)
		tick := time.NewTicker(heapEvery)
		defer tick.Stop()
		var grace <-chan time.Time
		for {
			if heap.over() {
				interrupt(fail(MemoryLimit, "the run held more than %d MiB of the daemon's memory and was stopped; globals, screenshot frames and element refs were reset: keep less (fewer, smaller values) across a run", heap.limit>>20))
				return
			}
			select {
			case <-w.finished:
				return
			case <-ctx.Done():
				interrupt(ended(context.Cause(ctx)))
				return
			case <-done:
				// Every host call fails from now on; a script that makes
				// none (a loop) is interrupted after the grace.
				hostCancel()
				done = nil
				t := time.NewTimer(stopGrace)
				defer t.Stop()
				grace = t.C
			case <-grace:
				interrupt(grantEnded())
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// stop ends the watch and returns why it interrupted the run, if it did.
func (w *watch) stop() *Error {
	close(w.finished)
	<-w.exited
	return w.why
}

// ended is why a run's context ended: its budget (the *Error it was
// given), or its caller giving up.
func ended(cause error) *Error {
	var e *Error
	switch {
	case errors.As(cause, &e):
		return e
	case errors.Is(cause, context.Canceled):
		return fail(Closed, "the run's caller went away: the run was aborted")
	case errors.Is(cause, context.DeadlineExceeded):
		return fail(Timeout, "the request's deadline passed before the run's budget: the run was aborted")
	}
	return fromBroker(cause, false)
}

func grantEnded() *Error {
	return fail(Closed, "the grant ended (Stop, revoke, expiry, its budget spent or its window closed): the run was aborted")
}

// reset drops what the runtime holds (globals, frames, refs) for a fresh
// engine, and gives the memory back: after a run over its memory limit,
// what it kept would charge every later run.
func (r *Runtime) reset() {
	r.vm = r.newVM()
	r.frames = map[string]frame{}
	r.ax = newRefs()
	debug.FreeOSMemory()
}

// newVM is an engine with the runtime's globals and guards.
func (r *Runtime) newVM() *goja.Runtime {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallDepth)
	r.vm = vm
	r.install()
	r.guard()
	return vm
}
