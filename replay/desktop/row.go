package desktop

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/replay"
)

// DefaultLeaseWait is how long a step waits for another replay's row to
// end before it fails with nothing sent: under the engine's own wait for
// a step's outcome, long enough for a slow row of a long form.
const DefaultLeaseWait = 2 * time.Minute

// rowLease is the desktop lease as a row holds it: taken at the row's
// first step that sends input, kept through its checks and waits, and let
// go after its commit (its last step), at its first step that did not go
// through, when another row starts, and on Close. A replay never gives
// the desktop to another in the middle of a row: two replays on one form
// would file one row's first name with the other's email.
type rowLease struct {
	mu      sync.Mutex
	release func()
	row     int
	// since is when the lease was taken after waiting for another holder:
	// input older than that was the other replay's, not a person's.
	since time.Time
}

// holdFor holds the lease for st's row, when st needs it and its row does
// not hold it yet. It returns ok false, with the step's outcome, when the
// wait ran past LeaseWait: nothing was sent.
func (e *Executor) holdFor(ctx context.Context, st replay.Step) (replay.Outcome, bool, error) {
	l := &e.lease
	l.mu.Lock()
	held := l.release != nil
	l.mu.Unlock()
	if e.o.Lease == nil || held || !sendsInput(st.Action) {
		return replay.Outcome{}, true, nil
	}
	hctx, cancel := context.WithTimeout(ctx, e.o.LeaseWait)
	defer cancel()
	release, waited, err := e.o.Lease.hold(hctx)
	if err != nil {
		if ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return replay.Outcome{}, false, err
		}
		// Provably not filed: the step sent nothing, and a destructive
		// one reached no app.
		out := failed("step %d (%s %s): %v after %s; nothing was sent", st.Index+1, st.Action, st.Label, err, e.o.LeaseWait)
		out.Watched = true
		return out, false, nil
	}
	l.mu.Lock()
	l.release, l.row = release, st.Row
	if waited {
		l.since = time.Now()
	}
	l.mu.Unlock()
	return replay.Outcome{}, true, nil
}

// rowStarts lets go a lease an earlier row kept (it ended without its
// last step reaching the executor).
func (e *Executor) rowStarts(st replay.Step) {
	e.lease.mu.Lock()
	stale := e.lease.release != nil && (st.Row != e.lease.row || st.Index == 0)
	e.lease.mu.Unlock()
	if stale {
		e.letGo()
	}
}

// rowEnds lets the lease go when st ended its row: its last step, or one
// that did not go through.
func (e *Executor) rowEnds(st replay.Step, out replay.Outcome, err error) {
	if st.Last || err != nil || !out.OK {
		e.letGo()
	}
}

// letGo releases the row's lease, if held; safe to call twice.
func (e *Executor) letGo() {
	e.lease.mu.Lock()
	release := e.lease.release
	e.lease.release = nil
	e.lease.mu.Unlock()
	if release != nil {
		release()
	}
}

// leaseSince is when the lease was taken from another replay (zero when
// it was free).
func (e *Executor) leaseSince() time.Time {
	e.lease.mu.Lock()
	defer e.lease.mu.Unlock()
	return e.lease.since
}
