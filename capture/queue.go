package capture

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// DefaultQueueSize is the capacity NewQueue uses when asked for none. A
// person makes a few intentful actions a second; a thousand queued steps is
// minutes of a stalled log, not a burst.
const DefaultQueueSize = 1024

// Queue is a bounded Sink: Emit never blocks (ErrSinkFull when full, counted
// in Dropped); Run delivers queued steps in order to deliver, one at a time,
// until ctx ends or Close is called and the queue is drained. Emitted steps
// get TS set to now when it is zero.
//
// The queue leaves Seq alone: the consumer assigns it in deliver, in delivery
// order, so dropped steps leave no gaps.
type Queue struct {
	// mu is held for reading by Emit and for writing by Close, so that no
	// send can race the close of ch. Emit's critical section never waits, so
	// neither does Close for long.
	mu      sync.RWMutex
	closed  bool
	ch      chan events.Step
	dropped atomic.Uint64
}

var _ Sink = (*Queue)(nil)

// NewQueue returns an empty queue holding up to size steps; size < 1 means
// DefaultQueueSize.
func NewQueue(size int) *Queue {
	if size < 1 {
		size = DefaultQueueSize
	}
	return &Queue{ch: make(chan events.Step, size)}
}

// Emit queues step and returns at once: ErrSinkFull (the step is dropped and
// counted) when the queue is full, ErrSinkClosed after Close. It is safe for
// concurrent use.
func (q *Queue) Emit(step events.Step) error { return q.emit(step, true) }

// Offer is Emit for a source that keeps a refused step and offers it again
// (a file being played): ErrSinkFull is not counted as a drop.
func (q *Queue) Offer(step events.Step) error { return q.emit(step, false) }

func (q *Queue) emit(step events.Step, countDrop bool) error {
	if step.TS == 0 {
		step.TS = events.Stamp(time.Now())
	}
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return ErrSinkClosed
	}
	select {
	case q.ch <- step:
		return nil
	default:
		if countDrop {
			q.dropped.Add(1)
		}
		return ErrSinkFull
	}
}

// Run delivers queued steps in order to deliver, one at a time, until ctx
// ends (it returns ctx.Err()) or Close is called and the queue is drained (it
// returns nil). If deliver fails, Run stops and returns its error; that step
// is not delivered again, and the steps after it stay queued for the next
// Run. A deliver that wants to carry on past a failure returns nil. Only one
// Run may be active at a time.
func (q *Queue) Run(ctx context.Context, deliver func(events.Step) error) error {
	for {
		// Checked first so that a cancelled ctx wins over a queue that is
		// never empty.
		if err := ctx.Err(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case step, ok := <-q.ch:
			if !ok {
				return nil
			}
			if err := deliver(step); err != nil {
				return fmt.Errorf("capture: deliver step: %w", err)
			}
		}
	}
}

// Close makes later Emits return ErrSinkClosed; Run returns once it has
// delivered what was queued before. Close is safe to call twice.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.ch)
	}
}

// Dropped returns how many steps Emit has dropped because the queue was
// full. Steps refused after Close are not counted: nobody was going to
// deliver them.
func (q *Queue) Dropped() uint64 { return q.dropped.Load() }

// Len returns how many steps are queued and not yet delivered.
func (q *Queue) Len() int { return len(q.ch) }

// Cap returns how many steps the queue holds at most.
func (q *Queue) Cap() int { return cap(q.ch) }
