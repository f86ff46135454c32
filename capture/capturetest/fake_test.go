package capturetest_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// fake is a source made to be broken in one named way at a time, to show
// that the suite catches each. Self-driven, it emits a step every few
// milliseconds from its own goroutine; driven, it models an OS hook: poke
// is the person acting, and the hook calls Emit from the caller's goroutine.
type fake struct {
	broken string
	driven bool

	mu   sync.Mutex
	stop chan struct{}
	done chan struct{}

	// hookMu is held for reading while the hook emits and for writing while
	// it is installed or removed, so Stop waits for a callback in flight.
	hookMu sync.RWMutex
	hook   capture.Sink
}

// hookHeld stands for a machine-wide resource (a display's RECORD context,
// an event tap) that a broken source never gives back.
var hookHeld atomic.Bool

func (f *fake) Name() string {
	if f.broken == "empty name" {
		return ""
	}
	return "fake"
}

func (f *fake) Channels() []string {
	if f.broken == "unknown channel" {
		return []string{capture.ChannelFloor, "screen"}
	}
	return []string{capture.ChannelFloor}
}

func (f *fake) Available() (bool, string) {
	if f.broken == "no reason" {
		return false, ""
	}
	return true, ""
}

func (f *fake) step() events.Step {
	s := events.Step{Actor: events.ActorHuman, Action: events.ActionClick, Cursor: []int{10, 20},
		ActiveApp: "Fake", ActiveWindow: "Fake window", Outcome: events.OutcomeOK,
		TS: events.Stamp(time.Now())}
	switch f.broken {
	case "sets seq":
		s.Seq = 7
	case "leaves ts zero":
		s.TS = 0
	case "stale ts":
		s.TS = 1712345600
	case "agent actor":
		s.Actor = events.ActorAgent
	case "bad cursor":
		s.Cursor = []int{10}
	}
	return s
}

func (f *fake) Start(ctx context.Context, _ capture.Session, sink capture.Sink) error {
	if f.broken == "holds a global hook" && !hookHeld.CompareAndSwap(false, true) {
		return errors.New("hook already installed")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stop != nil && f.broken != "closes its stop channel twice" {
		return errors.New("already started")
	}
	if f.driven {
		f.hookMu.Lock()
		f.hook = sink
		f.hookMu.Unlock()
		if f.broken != "ignores ctx" {
			context.AfterFunc(ctx, f.unhook)
		}
		f.stop = make(chan struct{})
		return nil
	}
	f.stop, f.done = make(chan struct{}), make(chan struct{})
	go f.run(ctx, sink, f.stop, f.done)
	return nil
}

func (f *fake) run(ctx context.Context, sink capture.Sink, stop, done chan struct{}) {
	defer close(done)
	tick := time.NewTicker(3 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			if f.broken == "emits after Stop" {
				time.Sleep(50 * time.Millisecond)
				sink.Emit(f.step())
			}
			return
		case <-ctx.Done():
			if f.broken != "ignores ctx" {
				return
			}
			ctx = context.Background()
		case <-tick.C:
		}
		if err := sink.Emit(f.step()); errors.Is(err, capture.ErrSinkFull) && f.broken == "blocks on a full sink" {
			select {} // waits for room that never comes, deaf to Stop
		}
	}
}

// poke is the person doing n things while the hook is installed.
func (f *fake) poke(n int) {
	f.hookMu.RLock()
	defer f.hookMu.RUnlock()
	for i := 0; i < n && f.hook != nil; i++ {
		f.hook.Emit(f.step())
	}
}

func (f *fake) unhook() {
	f.hookMu.Lock()
	defer f.hookMu.Unlock()
	f.hook = nil
}

func (f *fake) Stop() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stop == nil {
		if f.broken == "fails Stop without Start" {
			return errors.New("not started")
		}
		return nil
	}
	close(f.stop)
	switch {
	case f.driven && f.broken != "keeps its hook after Stop":
		f.unhook()
	case !f.driven && f.broken != "emits after Stop":
		<-f.done
	}
	if f.broken != "closes its stop channel twice" {
		f.stop = nil
	}
	return nil
}
