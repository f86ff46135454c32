package recorder

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
)

// watcher is a source that emits when the test says and keeps what it is
// told about the store.
type watcher struct {
	burst
	mu   sync.Mutex
	sink capture.Sink
	told []bool
}

func (w *watcher) Start(_ context.Context, _ capture.Session, sink capture.Sink) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sink = sink
	return nil
}

func (w *watcher) StoreFailing(failing bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.told = append(w.told, failing)
}

func (w *watcher) emit(t *testing.T, steps []events.Step) {
	t.Helper()
	w.mu.Lock()
	sink := w.sink
	w.mu.Unlock()
	for _, s := range steps {
		if err := sink.Emit(s); err != nil {
			t.Fatal(err)
		}
	}
}

func (w *watcher) heard() []bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.told)
}

// quiet waits until RECORDINGS holds n messages, CAPTURE none, and the
// account's store usage has caught up with what its streams hold: a
// stream's count drops before the account hears of the removal, and a
// limit taken from a usage not yet lowered would leave room for a step.
func quiet(t *testing.T, srv *embedded.Server, js jetstream.JetStream, n uint64) {
	t.Helper()
	ctx := context.Background()
	acc, err := srv.NATS().LookupAccount(embedded.AccountShim)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		var rec, capt, held uint64
		for s := range js.ListStreams(ctx).Info() {
			held += s.State.Bytes
			switch s.Config.Name {
			case events.StreamRecordings:
				rec = s.State.Msgs
			case events.StreamCapture:
				capt = s.State.Msgs
			}
		}
		used := acc.JetStreamUsage().Store
		if rec >= n && capt == 0 && used == held {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("RECORDINGS %d messages, CAPTURE %d, %d bytes used for %d held after a minute; want %d, none, equal", rec, capt, used, held, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSourceIsToldTheStoreFails: with the store refusing writes (its limit
// brought down to what it holds, as on a full disk) the steps are lost and
// the source is told; once it takes writes again the source is told that
// too, and the stop counts the steps lost.
func TestSourceIsToldTheStoreFails(t *testing.T) {
	srv, nc, js := natstest.Start(t, "m_test")
	src := &watcher{burst: burst{name: "floor", channels: []string{capture.ChannelFloor}, ok: true}}
	rec, started := recordingFrom(t, nc, js, src, 0)
	ctx := context.Background()
	steps := formSteps()
	until := func(what string, ok func(written, lost uint64) bool) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			_, written, lost, _ := rec.Progress()
			if ok(written, lost) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d written, %d lost after a minute", what, written, lost)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}

	src.emit(t, steps[:2])
	until("two steps written", func(w, _ uint64) bool { return w == 2 })
	// Once they are redacted into RECORDINGS, nothing else is written: the
	// store's size stands still while its limit comes down to it (a
	// forward after it would free CAPTURE's room for the next steps).
	quiet(t, srv, js, 3) // started and the two steps
	if err := srv.FollowDisk(0); err != nil {
		t.Fatal(err)
	}
	src.emit(t, steps[2:4])
	until("two steps refused", func(_, l uint64) bool { return l == 2 })
	if got := src.heard(); !slices.Equal(got, []bool{true}) {
		t.Fatalf("the source was told %v; want [true] once the store refused", got)
	}
	if err := srv.FollowDisk(1 << 30); err != nil {
		t.Fatal(err)
	}
	src.emit(t, steps[4:5])
	until("a step written again", func(w, _ uint64) bool { return w == 3 })
	if got := src.heard(); !slices.Equal(got, []bool{true, false}) {
		t.Fatalf("the source was told %v; want [true false] once the store took steps again", got)
	}
	sum, err := rec.StopRecording(ctx, started.Ref())
	if err != nil || sum.StepCount != 3 || sum.LostSteps != 2 {
		t.Fatalf("stop: %+v, %v; want 3 steps, 2 lost", sum, err)
	}
}
