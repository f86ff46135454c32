package recorder

import (
	"context"
	"testing"

	"github.com/reprise-dev/reprise/capture"
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
