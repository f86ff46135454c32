package capture

import (
	"context"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// Queue.Emit sits on the OS input path (an event-tap callback that macOS
// disables when it is slow), so its cost is measured on each of its paths.

func benchStep() events.Step {
	return events.Step{Actor: events.ActorHuman, Action: events.ActionClick, Cursor: []int{840, 314},
		ActiveApp: "Google Chrome", ActiveWindow: "New customer — Acme", Outcome: events.OutcomeOK}
}

// BenchmarkQueueEmit emits into a queue a consumer is draining, the normal
// case; a step that finds the queue full is dropped and counted.
func BenchmarkQueueEmit(b *testing.B) {
	q := NewQueue(DefaultQueueSize)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.Run(ctx, func(events.Step) error { return nil })
	}()
	step := benchStep()
	step.TS = 1712345678.42
	for b.Loop() {
		q.Emit(step)
	}
	b.StopTimer()
	cancel()
	<-done
	b.ReportMetric(float64(q.Dropped())/float64(b.N), "dropped/op")
}

// BenchmarkQueueEmitStamp is BenchmarkQueueEmit with TS left zero, so the
// queue reads the clock.
func BenchmarkQueueEmitStamp(b *testing.B) {
	q := NewQueue(DefaultQueueSize)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.Run(ctx, func(events.Step) error { return nil })
	}()
	step := benchStep()
	for b.Loop() {
		q.Emit(step)
	}
	b.StopTimer()
	cancel()
	<-done
}

// BenchmarkQueueEmitFull is the worst case for a stalled log: every Emit
// finds the queue full.
func BenchmarkQueueEmitFull(b *testing.B) {
	q := NewQueue(1)
	step := benchStep()
	step.TS = 1712345678.42
	q.Emit(step)
	for b.Loop() {
		if q.Emit(step) != ErrSinkFull {
			b.Fatal("Emit into a full queue did not return ErrSinkFull")
		}
	}
}

// BenchmarkQueueEmitParallel has several input callbacks (mouse, keyboard,
// the extension) emitting at once into a drained queue.
func BenchmarkQueueEmitParallel(b *testing.B) {
	q := NewQueue(DefaultQueueSize)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.Run(ctx, func(events.Step) error { return nil })
	}()
	b.RunParallel(func(pb *testing.PB) {
		step := benchStep()
		step.TS = 1712345678.42
		for pb.Next() {
			q.Emit(step)
		}
	})
	b.StopTimer()
	cancel()
	<-done
}
