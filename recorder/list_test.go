package recorder

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// framer is a source that stores one frame and emits its steps.
type framer struct {
	burst
	ref   string
	image []byte
}

func (f *framer) Start(ctx context.Context, s capture.Session, sink capture.Sink) error {
	if err := sink.(capture.FrameSink).PutFrame(ctx, f.ref, f.image); err != nil {
		return err
	}
	return f.burst.Start(ctx, s, sink)
}

// TestLocalService: the recordings service lists what is kept and hands
// out a frame bigger than one message, in parts; a malformed request is
// refused with the one envelope and a clear code, and the service keeps
// serving.
func TestLocalService(t *testing.T) {
	image := make([]byte, 3<<20)
	_, _ = rand.Read(image)
	src := &framer{burst: burst{name: "burst", channels: []string{capture.ChannelFloor}, steps: formSteps(), ok: true}, ref: "f1", image: image}
	r := newRig(t, nil, src)
	svc, err := r.rec.Recordings().Serve(r.nc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Stop() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	started, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.rec.StopRecording(ctx, started.Ref()); err != nil {
		t.Fatal(err)
	}

	var list api.RecordingListReply
	if err := ops.AskJSON(ctx, r.nc, events.LocalRecordingsList, nil, &list); err != nil || len(list.Recordings) != 1 || list.Recordings[0].RecordingID != started.RecordingID {
		t.Fatalf("list = %+v, %v; want the one recording", list, err)
	}
	frame := func(recID, ref string) ([]byte, error) {
		b, _ := json.Marshal(api.FrameRequest{RecordingID: recID, Ref: ref})
		return ops.Ask(ctx, r.nc, events.LocalRecordingsFrame, b)
	}
	if got, err := frame(started.RecordingID, "f1"); err != nil || !bytes.Equal(got, image) {
		t.Fatalf("frame f1 = %d bytes, %v; want the %d-byte image", len(got), err, len(image))
	}

	for _, tc := range []struct{ subject, body, code string }{
		{events.LocalRecordingsList, `{"recording_id":"x"}`, ops.CodeInvalidRequest},
		{events.LocalRecordingsList, `[]`, ops.CodeInvalidRequest},
		{events.LocalRecordingsList, `{`, ops.CodeInvalidRequest},
		{events.LocalRecordingsFrame, ``, ops.CodeInvalidRequest},
		{events.LocalRecordingsFrame, `not json`, ops.CodeInvalidRequest},
		{events.LocalRecordingsFrame, `{"recording_id":"` + started.RecordingID + `"}`, ops.CodeInvalidRequest},
		{events.LocalRecordingsFrame, `{"recording_id":"` + started.RecordingID + `","ref":"` + string(bytes.Repeat([]byte("a"), 200)) + `"}`, ops.CodeInvalidRequest},
		{events.LocalRecordingsFrame, `{"recording_id":"` + started.RecordingID + `","ref":"nope"}`, ops.CodeRecordingNotFound},
		{events.LocalRecordingsFrame, `{"recording_id":"rec_missing","ref":"f1"}`, ops.CodeRecordingNotFound},
		{events.LocalRecordingsFrame, `{"recording_id":"../..","ref":"f1"}`, ops.CodeRecordingNotFound},
	} {
		_, err := ops.Ask(ctx, r.nc, tc.subject, []byte(tc.body))
		var e *ops.Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Message == "" {
			t.Errorf("%s %q = %v; want a %s refusal with a message", tc.subject, tc.body, err, tc.code)
		}
	}
	if got, err := frame(started.RecordingID, "f1"); err != nil || !bytes.Equal(got, image) {
		t.Fatalf("frame f1 after the malformed requests = %d bytes, %v", len(got), err)
	}
	stats := svc.Stats()
	for _, ep := range stats.Endpoints {
		if want := map[string]int{"list": 3, "frame": 7}[ep.Name]; ep.NumErrors != want {
			t.Errorf("endpoint %s counted %d errors; want %d", ep.Name, ep.NumErrors, want)
		}
	}
}
