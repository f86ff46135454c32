package recorder

import (
	"context"
	"errors"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/store"
)

// TestSealedAtRest: the stored steps hold no value in the clear, and a step
// moved to another recording's subject does not open there.
func TestSealedAtRest(t *testing.T) {
	r := newRig(t, nil, &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: formSteps(), ok: true})
	ctx := context.Background()
	a := record(t, r)
	b := record(t, r)
	for _, stream := range []string{events.StreamRecordings, events.StreamCapture} {
		if n := countInStream(t, r.js, stream, distinctive); n != 0 {
			t.Fatalf("%s holds the value in the clear in %d messages", stream, n)
		}
	}
	// Copy a's step 3 onto b's subject with b's dedupe id for seq 3.
	st, _ := r.js.Stream(ctx, events.StreamRecordings)
	raw, err := st.GetLastMsgForSubject(ctx, events.RecordingSubject(a, events.RecStep))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.js.Publish(ctx, events.RecordingSubject(b, events.RecStep), raw.Data, jetstream.WithMsgID(events.StepMsgID(b, 6)+":moved")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.rec.FetchRecording(ctx, ops.RecordingRef{RecordingID: b}); err == nil {
		t.Fatal("a step sealed for another recording opened in this one")
	}
	if _, err := r.rec.FetchRecording(ctx, ops.RecordingRef{RecordingID: a}); err != nil {
		t.Fatalf("the untouched recording: %v", err)
	}
}

func record(t *testing.T, r *rig) string {
	t.Helper()
	ctx := context.Background()
	started, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.rec.StopRecording(ctx, started.Ref()); err != nil {
		t.Fatal(err)
	}
	return started.RecordingID
}

// TestEvictionCryptoErases: past Keep, the oldest recording's data key is
// deleted, its steps purged, and it is not found any more.
func TestEvictionCryptoErases(t *testing.T) {
	r := newRig(t, nil, &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: formSteps(), ok: true})
	r.rec.cfg.Keep = 2
	ctx := context.Background()
	first := record(t, r)
	if _, err := r.rec.cfg.Keys.Get(store.DataKeyName(first)); err != nil {
		t.Fatalf("data key of a kept recording: %v", err)
	}
	record(t, r)
	third := record(t, r)

	if _, err := r.rec.cfg.Keys.Get(store.DataKeyName(first)); !errors.Is(err, store.ErrKeyNotFound) {
		t.Fatalf("data key of the evicted recording: %v; want deleted", err)
	}
	_, err := r.rec.FetchRecording(ctx, ops.RecordingRef{RecordingID: first})
	wantCode(t, err, ops.CodeRecordingNotFound)
	st, _ := r.js.Stream(ctx, events.StreamRecordings)
	info, _ := st.Info(ctx, jetstream.WithSubjectFilter("rec."+first+".*"))
	for subj, n := range info.State.Subjects {
		if subj != events.RecordingSubject(first, events.RecEvicted) {
			t.Errorf("%d messages left on %s after eviction", n, subj)
		}
	}
	list, _ := r.rec.Recordings().List(ctx)
	if len(list) != 2 || list[1].RecordingID != third {
		t.Fatalf("kept %+v; want the newest two", list)
	}
	if _, err := r.rec.FetchRecording(ctx, ops.RecordingRef{RecordingID: third}); err != nil {
		t.Fatalf("fetch of a kept recording: %v", err)
	}
}
