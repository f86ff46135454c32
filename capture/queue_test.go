package capture

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// mark returns a valid step told apart from others by its cursor.
func mark(x, y int) events.Step {
	return events.Step{Actor: events.ActorHuman, Action: events.ActionClick,
		Cursor: []int{x, y}, Outcome: events.OutcomeOK}
}

// drain runs q until Close has been called and everything is delivered.
func drain(t *testing.T, q *Queue) []events.Step {
	t.Helper()
	var got []events.Step
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.Run(ctx, func(s events.Step) error { got = append(got, s); return nil }); err != nil {
		t.Fatalf("Run = %v; want nil after Close", err)
	}
	return got
}

func TestQueueNeverBlocks(t *testing.T) {
	q := NewQueue(1)
	if err := q.Emit(mark(0, 0)); err != nil {
		t.Fatalf("Emit into an empty queue = %v; want nil", err)
	}
	const n = 1_000_000
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := q.Emit(mark(i, 0)); err != ErrSinkFull {
			t.Fatalf("Emit #%d into a full queue = %v; want ErrSinkFull", i, err)
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d Emits on a full queue: %v (%.0f ns each)", n, elapsed, float64(elapsed.Nanoseconds())/n)
	// Generous for the race detector on a loaded machine; a blocking Emit
	// would never get here at all.
	if elapsed > 10*time.Second {
		t.Errorf("%d Emits on a full queue took %v; want well under 10s", n, elapsed)
	}
	if got := q.Dropped(); got != n {
		t.Errorf("Dropped() = %d; want %d", got, n)
	}
	if got := q.Len(); got != 1 {
		t.Errorf("Len() = %d; want 1", got)
	}
}

func TestQueueOrderAndClose(t *testing.T) {
	const n = 1000
	q := NewQueue(n)
	for i := 0; i < n; i++ {
		if err := q.Emit(mark(i, 0)); err != nil {
			t.Fatalf("Emit #%d = %v; want nil", i, err)
		}
	}
	q.Close()
	q.Close() // twice is fine
	if err := q.Emit(mark(-1, 0)); err != ErrSinkClosed {
		t.Errorf("Emit after Close = %v; want ErrSinkClosed", err)
	}
	got := drain(t, q)
	if len(got) != n {
		t.Fatalf("Run delivered %d steps after Close; want all %d queued", len(got), n)
	}
	for i, s := range got {
		if s.Cursor[0] != i {
			t.Fatalf("delivered step %d is step %d; want the order of Emit", i, s.Cursor[0])
		}
	}
	if got := q.Dropped(); got != 0 {
		t.Errorf("Dropped() = %d; want 0 (a refusal after Close is not a drop)", got)
	}
}

func TestQueueDroppedCounts(t *testing.T) {
	for _, tc := range []struct{ size, emits, wantDropped int }{
		{1, 1, 0}, {4, 10, 6}, {4, 4, 0}, {16, 17, 1},
	} {
		q := NewQueue(tc.size)
		var full int
		for i := 0; i < tc.emits; i++ {
			if err := q.Emit(mark(i, 0)); errors.Is(err, ErrSinkFull) {
				full++
			}
		}
		q.Close()
		got := drain(t, q)
		if q.Dropped() != uint64(tc.wantDropped) || full != tc.wantDropped {
			t.Errorf("NewQueue(%d) after %d Emits: Dropped() = %d, %d ErrSinkFull; want %d",
				tc.size, tc.emits, q.Dropped(), full, tc.wantDropped)
		}
		if len(got) != tc.emits-tc.wantDropped {
			t.Errorf("NewQueue(%d) after %d Emits delivered %d; want %d", tc.size, tc.emits, len(got), tc.emits-tc.wantDropped)
		}
		for i, s := range got {
			if s.Cursor[0] != i {
				t.Errorf("NewQueue(%d): delivered step %d is step %d; want the first ones kept", tc.size, i, s.Cursor[0])
				break
			}
		}
	}
}

// TestQueueOfferIsNotADrop: a step Offer could not queue stays the
// caller's, to offer again, and is not counted as dropped.
func TestQueueOfferIsNotADrop(t *testing.T) {
	q := NewQueue(1)
	if err := q.Offer(mark(0, 0)); err != nil {
		t.Fatalf("Offer to an empty queue = %v", err)
	}
	if err := q.Offer(mark(1, 0)); !errors.Is(err, ErrSinkFull) || q.Dropped() != 0 {
		t.Fatalf("Offer to a full queue = %v, Dropped() = %d; want ErrSinkFull and none dropped", err, q.Dropped())
	}
	q.Close()
	if err := q.Offer(mark(2, 0)); !errors.Is(err, ErrSinkClosed) {
		t.Fatalf("Offer after Close = %v; want ErrSinkClosed", err)
	}
	if got := drain(t, q); len(got) != 1 {
		t.Fatalf("delivered %d; want the one step offered with room", len(got))
	}
}

func TestQueueDefaultSize(t *testing.T) {
	for _, size := range []int{0, -3} {
		if got := NewQueue(size).Cap(); got != DefaultQueueSize {
			t.Errorf("NewQueue(%d).Cap() = %d; want %d", size, got, DefaultQueueSize)
		}
	}
}

func TestQueueStampsZeroTS(t *testing.T) {
	q := NewQueue(2)
	before := events.Stamp(time.Now())
	zero, set := mark(0, 0), mark(1, 0)
	set.TS = 1712345678.42
	q.Emit(zero)
	q.Emit(set)
	q.Close()
	got := drain(t, q)
	after := events.Stamp(time.Now())
	if ts := got[0].TS; ts < before || ts > after {
		t.Errorf("TS of a step emitted with none = %f; want now, in [%f, %f]", ts, before, after)
	}
	if ts := got[1].TS; ts != set.TS {
		t.Errorf("TS of a step emitted with one = %f; want it kept, %f", ts, set.TS)
	}
	if got[0].Seq != 0 || got[1].Seq != 0 {
		t.Errorf("Seq after the queue = %d, %d; want 0, 0 (the consumer assigns it)", got[0].Seq, got[1].Seq)
	}
}

func TestQueueRunStopsOnContext(t *testing.T) {
	q := NewQueue(8)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx, func(events.Step) error { return nil }) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run after cancel = %v; want context.Canceled", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("Run did not return within 2s of its context ending")
	}
	// A cancelled context wins even over a queue with steps ready.
	q.Emit(mark(0, 0))
	delivered := 0
	if err := q.Run(ctx, func(events.Step) error { delivered++; return nil }); !errors.Is(err, context.Canceled) || delivered != 0 {
		t.Errorf("Run(cancelled ctx) = %v after %d deliveries; want context.Canceled after 0", err, delivered)
	}
}

func TestQueueRunReturnsDeliverError(t *testing.T) {
	boom := errors.New("log unreachable")
	q := NewQueue(4)
	for i := 0; i < 3; i++ {
		q.Emit(mark(i, 0))
	}
	calls := 0
	err := q.Run(context.Background(), func(events.Step) error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 1 {
		t.Fatalf("Run = %v after %d calls; want the deliver error after 1", err, calls)
	}
	// The next Run resumes with the steps after the failed one.
	q.Close()
	got := drain(t, q)
	if len(got) != 2 || got[0].Cursor[0] != 1 {
		t.Errorf("the next Run delivered %d steps starting at %v; want 2 starting at step 1", len(got), got)
	}
}

func TestQueueConcurrentEmit(t *testing.T) {
	const writers, each = 8, 2000
	q := NewQueue(64)
	delivered := make(chan []events.Step, 1)
	go func() {
		var got []events.Step
		q.Run(context.Background(), func(s events.Step) error { got = append(got, s); return nil })
		delivered <- got
	}()
	var wg sync.WaitGroup
	accepted := make([]int, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				if q.Emit(mark(w, i)) == nil {
					accepted[w]++
				}
			}
		}()
	}
	wg.Wait()
	q.Close()
	got := <-delivered
	total := 0
	for _, n := range accepted {
		total += n
	}
	if len(got) != total || uint64(total)+q.Dropped() != writers*each {
		t.Errorf("delivered %d, accepted %d, dropped %d; want delivered = accepted and accepted + dropped = %d",
			len(got), total, q.Dropped(), writers*each)
	}
	// Each writer's steps keep their order.
	last := make([]int, writers)
	for w := range last {
		last[w] = -1
	}
	for _, s := range got {
		w, i := s.Cursor[0], s.Cursor[1]
		if i <= last[w] {
			t.Fatalf("writer %d's step %d delivered after its step %d; want Emit order", w, i, last[w])
		}
		last[w] = i
	}
}

// TestQueueCloseDuringEmit closes while writers are emitting: no send may hit
// the closed channel, and every accepted step is delivered.
func TestQueueCloseDuringEmit(t *testing.T) {
	for round := 0; round < 20; round++ {
		q := NewQueue(1 << 14)
		var wg sync.WaitGroup
		var mu sync.Mutex
		accepted := 0
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 1000; i++ {
					if err := q.Emit(mark(w, i)); err == nil {
						mu.Lock()
						accepted++
						mu.Unlock()
					} else if err != ErrSinkClosed {
						t.Errorf("Emit = %v; want nil or ErrSinkClosed", err)
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(round) * 50 * time.Microsecond)
		q.Close()
		wg.Wait()
		if got := drain(t, q); len(got) != accepted {
			t.Fatalf("round %d: delivered %d after Close; want the %d accepted", round, len(got), accepted)
		}
	}
}
