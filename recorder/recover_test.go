package recorder

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/store"
)

// TestRecoverResumesTheOpenRecording: a recorder that died mid-recording is
// replaced by a new one on the same log; the recording goes on, its seqs
// continuing after the last one written, and an older open one is closed.
func TestRecoverResumesTheOpenRecording(t *testing.T) {
	src := &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: formSteps(), ok: true}
	r := newRig(t, nil, src)
	ctx := context.Background()
	older, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	// Forget the session without stopping it, as a crash would, and open a
	// second recording the same way.
	crash := func() {
		r.rec.mu.Lock()
		s := r.rec.active
		r.rec.active = nil
		r.rec.mu.Unlock()
		s.stop(r.rec.log)
		if err := r.rec.waitRedacted(ctx, s.started.RecordingID); err != nil {
			t.Fatal(err)
		}
	}
	crash()
	newer, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	crash()

	if err := r.rec.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	sum, err := r.rec.StopRecording(ctx, newer.Ref())
	if err != nil {
		t.Fatal(err)
	}
	n := len(formSteps())
	if sum.StepCount != 2*n {
		t.Fatalf("resumed recording has %d steps; want %d (the source played again after the resume)", sum.StepCount, 2*n)
	}
	rec, err := r.rec.FetchRecording(ctx, newer.Ref())
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range rec.Steps {
		if s.Seq != uint64(i+1) {
			t.Fatalf("step %d has seq %d; want seqs to continue without a gap or repeat", i, s.Seq)
		}
	}
	list, _ := r.rec.Recordings().List(ctx)
	for _, l := range list {
		if l.RecordingID == older.RecordingID && l.State != "stopped" {
			t.Fatalf("the older open recording is %s; want it closed", l.State)
		}
	}
}

// kept is a delivery whose ack is lost: the redact stage stores its step in
// RECORDINGS, and CAPTURE keeps it.
type kept struct{ jetstream.Msg }

func (kept) Ack() error { return nil }

// TestStepLeftInCaptureAfterItMoved builds what a SIGKILL of the daemon can
// leave (TestRedactStageSurvivesSIGKILL in cmd/reprise saw it): a step that
// RECORDINGS holds and the redact consumer has acked, so it lies at or below
// the ack floor and is never delivered again, still in CAPTURE because the
// server did not persist its removal. The next run must neither wait for it
// at the stop nor take it for the recording's last step at the resume,
// numbering new steps from there (CAPTURE would drop them as repeats).
func TestStepLeftInCaptureAfterItMoved(t *testing.T) {
	_, nc, js := natstest.Start(t, "m_test")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	src := &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: formSteps(), ok: true}
	n := len(src.steps)
	cfg := Config{JS: js, NC: nc, MachineID: "m_test", Registry: capture.NewRegistry(src),
		Consent: func(context.Context, string, string, string, []string) error { return nil },
		Keys:    store.FileKeyStore{Dir: t.TempDir()}}

	// The run that dies: its stage made the consumer, then the steps
	// reached CAPTURE and were stored in RECORDINGS, their acks lost.
	dead := New(cfg)
	if err := dead.StartRedactStage(ctx); err != nil {
		t.Fatal(err)
	}
	dead.Close()
	started, err := dead.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	dead.mu.Lock()
	s := dead.active
	dead.active = nil
	dead.mu.Unlock()
	s.stop(dead.log)
	cons, err := js.Consumer(ctx, events.StreamCapture, RedactConsumer)
	if err != nil {
		t.Fatal(err)
	}
	batch, err := cons.Fetch(n, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	dead.forwarder = events.NewForwarder(js, nil)
	var seqs []uint64
	for m := range batch.Messages() {
		meta, err := m.Metadata()
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, meta.Sequence.Stream)
		dead.redact(kept{m})
	}
	dead.forwarder.Close()
	stepSubject := events.RecordingSubject(started.RecordingID, events.RecStep)
	recs, err := js.Stream(ctx, events.StreamRecordings)
	if err != nil {
		t.Fatal(err)
	}
	info, err := recs.Info(ctx, jetstream.WithSubjectFilter(stepSubject))
	if err != nil || len(seqs) != n || info.State.Subjects[stepSubject] != uint64(n) {
		t.Fatalf("fetched %d steps, RECORDINGS holds %+v (%v); want all %d moved", len(seqs), info.State.Subjects, err, n)
	}
	// The server persisted every ack but one removal: step 2 stays, the
	// consumer's ack floor past it.
	capStream, err := js.Stream(ctx, events.StreamCapture)
	if err != nil {
		t.Fatal(err)
	}
	for i, seq := range seqs {
		if i != 1 {
			if err := capStream.DeleteMsg(ctx, seq); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := js.ResetConsumerToSequence(ctx, events.StreamCapture, RedactConsumer, seqs[n-1]+1); err != nil {
		t.Fatal(err)
	}
	if info, err := cons.Info(ctx); err != nil || info.AckFloor.Stream != seqs[n-1] || info.NumAckPending != 0 || info.NumPending != 0 {
		t.Fatalf("consumer after the reset: %+v, %v; want the ack floor at %d, nothing pending", info, err, seqs[n-1])
	}

	// The next run resumes the recording, its source playing again, its
	// seqs after the highest written, whatever CAPTURE still holds.
	next := New(cfg)
	if last, err := next.lastSeq(ctx, started.RecordingID); err != nil || last != uint64(n) {
		t.Fatalf("lastSeq = %d, %v; want %d, the highest in RECORDINGS, not the step left in CAPTURE", last, err, n)
	}
	if err := next.StartRedactStage(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(next.Close)
	if err := next.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	sum, err := next.StopRecording(ctx, started.Ref())
	if err != nil {
		t.Fatalf("stop after the resume: %v; want the step left in CAPTURE not waited for", err)
	}
	if sum.StepCount != 2*n {
		t.Fatalf("resumed recording has %d steps; want %d: the steps after the resume were numbered from the step left in CAPTURE", sum.StepCount, 2*n)
	}
	rec, err := next.FetchRecording(ctx, started.Ref())
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range rec.Steps {
		if s.Seq != uint64(i+1) {
			t.Fatalf("step %d has seq %d; want seqs 1..%d, each once", i, s.Seq, 2*n)
		}
	}
}
