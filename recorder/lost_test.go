package recorder

import (
	"context"
	"errors"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/store"
)

// flood emits every step as fast as it can and carries on past a full
// queue, as the OS sources do.
type flood struct{ burst }

func (f *flood) Start(_ context.Context, _ capture.Session, sink capture.Sink) error {
	for _, s := range f.steps {
		if err := sink.Emit(s); err != nil && !errors.Is(err, capture.ErrSinkFull) {
			return err
		}
	}
	return nil
}

// recordingFrom starts a recorder with src as its only source, queueing
// queue steps at most (0: the default), and a demonstration from it.
func recordingFrom(t *testing.T, nc *nats.Conn, js jetstream.JetStream, src capture.Source, queue int) (*Recorder, ops.Started) {
	t.Helper()
	rec := New(Config{JS: js, NC: nc, MachineID: "m_test", Registry: capture.NewRegistry(src), QueueSize: queue,
		Consent: func(context.Context, string, string, string, []string) error { return nil },
		Keys:    store.FileKeyStore{Dir: t.TempDir()}})
	ctx := context.Background()
	if err := rec.StartRedactStage(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	started, err := rec.StartRecording(ctx, startReq(capture.ModeDemonstration, src.Name()))
	if err != nil {
		t.Fatal(err)
	}
	return rec, started
}

// TestLostStepsAreReported: steps dropped at a full capture queue are in
// the stop summary (count and warning) and on the recording's listing.
func TestLostStepsAreReported(t *testing.T) {
	_, nc, js := natstest.Start(t, "m_test")
	many := make([]events.Step, 0, 3000)
	for range 500 {
		many = append(many, formSteps()...)
	}
	src := &flood{burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: many, ok: true}}
	rec, started := recordingFrom(t, nc, js, src, 1)
	ctx := context.Background()
	sum, err := rec.StopRecording(ctx, started.Ref())
	if err != nil {
		t.Fatal(err)
	}
	if sum.LostSteps == 0 || sum.StepCount+int(sum.LostSteps) != len(many) || len(sum.Warnings) == 0 {
		t.Fatalf("summary %+v; want the %d steps not stored counted as lost, with a warning", sum, len(many)-sum.StepCount)
	}
	list, err := rec.Recordings().List(ctx)
	if err != nil || len(list) != 1 || list[0].LostSteps != sum.LostSteps {
		t.Fatalf("listing %+v, %v; want the recording flagged with %d lost", list, err, sum.LostSteps)
	}
}
