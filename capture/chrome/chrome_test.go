package chrome

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/capturetest"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extension"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recorder"
	"github.com/reprise-dev/reprise/store"
)

type rig struct {
	srv    *embedded.Server
	daemon *nats.Conn
	ext    *nats.Conn // the extension, over the WebSocket, as its own user
}

func newRig(t *testing.T) *rig {
	t.Helper()
	s, d, _ := natstest.Start(t, "m_test")
	ext, err := nats.Connect(s.WebSocketURL(),
		nats.WebSocketConnectionHeaders(http.Header{"Origin": []string{extension.Origin}}),
		nats.UserInfo(string(embedded.RoleExtension), s.Password(embedded.RoleExtension)),
		nats.CustomInboxPrefix(events.ExtensionInboxPrefix))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ext.Close)
	return &rig{srv: s, daemon: d, ext: ext}
}

func (r *rig) source(t *testing.T) *Source {
	t.Helper()
	src, err := New(r.daemon, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(src.Close)
	return src
}

func (r *rig) hello(t *testing.T) Hello {
	t.Helper()
	m, err := r.ext.Request(events.ExtensionHello, []byte(`{}`), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var h Hello
	if err := json.Unmarshal(m.Data, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

var stepN atomic.Int64

func fillStep(label, value string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"seq":0,"ts":%f,"actor":"human","action":"fill","screenshot_ref":"","cursor":[10,20],"active_app":"Chromium","active_window":"Form","enrichment":{"kind":"dom","selectors":[{"strategy":"label","value":%q}],"ax_path":null,"role":"textbox","label":%q,"url":"http://127.0.0.1/form"},"value":{"raw":%q,"type":"text","is_parameter":null},"narration":null,"outcome":"ok","redacted":false}`,
		events.Stamp(time.Now()), label, label, value))
}

func (r *rig) send(t *testing.T, req StepRequest) StepReply {
	t.Helper()
	b, _ := json.Marshal(req)
	return r.request(t, events.ExtensionStep, b)
}

func (r *rig) sendFrame(t *testing.T, id, frame string) StepReply {
	t.Helper()
	b, _ := json.Marshal(FrameRequest{ID: id, Frame: frame})
	return r.request(t, events.ExtensionFrame, b)
}

func (r *rig) request(t *testing.T, subject string, b []byte) StepReply {
	t.Helper()
	m, err := r.ext.Request(subject, b, 5*time.Second)
	if err != nil {
		t.Fatalf("%s request: %v", subject, err)
	}
	var rep StepReply
	if err := json.Unmarshal(m.Data, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestConformance(t *testing.T) {
	r := newRig(t)
	capturetest.Run(t, func(t *testing.T) capture.Source {
		src := r.source(t)
		r.hello(t)
		return src
	}, func(t *testing.T, _ capture.Source) {
		// The extension sends without waiting, as a tab would.
		for i := 0; i < 5; i++ {
			b, _ := json.Marshal(StepRequest{ID: fmt.Sprint("c", stepN.Add(1)), Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "Ada")})
			inbox := r.ext.NewRespInbox()
			_ = r.ext.PublishRequest(events.ExtensionStep, inbox, b)
		}
	}, 5)
}

func TestOriginsDedupeAndMalformed(t *testing.T) {
	r := newRig(t)
	src := r.source(t)
	if ok, why := src.Available(); ok || why == "" {
		t.Fatalf("Available before any hello = %v, %q; want unavailable with a reason", ok, why)
	}
	if h := r.hello(t); h.Recording {
		t.Fatalf("hello before a recording = %+v", h)
	}
	if ok, _ := src.Available(); !ok {
		t.Fatal("unavailable after a hello")
	}
	if rep := r.send(t, StepRequest{ID: "a", Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "Ada")}); rep.OK || rep.Recording {
		t.Fatalf("step while not recording = %+v; want refused, not recording", rep)
	}
	q := capture.NewQueue(16)
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_x", Mode: "demonstration", Channels: []string{"browser"}}, q); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		req    StepRequest
		ok     bool
		queued int
	}{
		{StepRequest{ID: "1", Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "Ada")}, true, 1},  // adopts this origin
		{StepRequest{ID: "1", Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "Ada")}, true, 1},  // a resend: taken once
		{StepRequest{ID: "2", Origin: "http://127.0.0.1:9090", Step: fillStep("Name", "Bob")}, false, 1}, // another origin
		{StepRequest{ID: "3", Origin: "not an origin", Step: fillStep("Name", "C")}, false, 1},
		{StepRequest{ID: "", Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "C")}, false, 1},
		{StepRequest{ID: "4", Origin: "http://127.0.0.1:8080", Step: json.RawMessage(`{"action":"fly"}`)}, false, 1},
		{StepRequest{ID: "5", Origin: "http://127.0.0.1:8080", Step: fillStep("Name", "C"), Frame: "bm90IGFuIGltYWdl"}, false, 1},
		{StepRequest{ID: "6", Origin: "HTTP://127.0.0.1:8080/", Step: fillStep("Email", "a@b.c")}, true, 2},
	}
	for _, tc := range cases {
		rep := r.send(t, tc.req)
		if rep.OK != tc.ok || q.Len() != tc.queued || (!tc.ok && rep.Error == "") {
			t.Errorf("step %+v: reply %+v, %d queued; want ok=%v, %d queued", tc.req.ID, rep, q.Len(), tc.ok, tc.queued)
		}
	}
	if h := r.hello(t); !h.Recording || h.RecordingID != "rec_x" || len(h.AllowedOrigins) != 1 || h.AllowedOrigins[0] != "http://127.0.0.1:8080" || h.StoreFailing {
		t.Fatalf("hello while recording = %+v", h)
	}
	// The recorder's writes fail (a full disk): the extension is told, and
	// told again when they succeed.
	src.StoreFailing(true)
	if h := r.hello(t); !h.StoreFailing {
		t.Fatalf("hello while the store fails = %+v; want store_failing", h)
	}
	src.StoreFailing(false)
	if h := r.hello(t); h.StoreFailing {
		t.Fatalf("hello once the store takes steps again = %+v", h)
	}
	m, err := r.ext.Request(events.ExtensionStep, []byte(`{"id":"7","origin":"http://127.0.0.1:8080","step":{},"extra":1}`), 2*time.Second)
	if err != nil || !bytes.Contains(m.Data, []byte("malformed")) {
		t.Fatalf("malformed request answered %s, %v", m.Data, err)
	}
	for _, bad := range []string{`{"id":"f","frame":"bm90IGFuIGltYWdl"}`, `{"id":"","frame":"iVBORw0KGgo="}`, `{"id":"f","frame":"%%%"}`, `{"id":"f"`, `[]`, `{"id":"f","frame":"iVBORw0KGgo=","x":1}`} {
		if rep := r.request(t, events.ExtensionFrame, []byte(bad)); rep.OK || rep.Error == "" {
			t.Errorf("frame request %s answered %+v; want a refusal that says why", bad, rep)
		}
	}
}

// TestStepsAndFramesIntoARecording runs the browser channel through the
// recorder: the steps land in order, each frame is stored sealed and opens
// to the same image.
func TestStepsAndFramesIntoARecording(t *testing.T) {
	r := newRig(t)
	src := r.source(t)
	r.hello(t)
	js, _ := jetstream.New(r.daemon)
	ctx := context.Background()
	if err := events.EnsureStores(ctx, js); err != nil {
		t.Fatal(err)
	}
	rec := recorder.New(recorder.Config{JS: js, NC: r.daemon, MachineID: "m_test", Registry: capture.NewRegistry(src),
		Keys: store.FileKeyStore{Dir: t.TempDir()}, Consent: func(context.Context, string, string, string, []string) error { return nil }})
	if err := rec.StartRedactStage(ctx); err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	started, err := rec.StartRecording(ctx, ops.StartRequest{Mode: "demonstration", InterpretationRoute: "extract_then_cloud", Channels: []string{"browser"}, ConsentToken: "t"})
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 64, 32))
	img.Set(3, 3, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	png.Encode(&buf, img)
	frame := base64.StdEncoding.EncodeToString(buf.Bytes())
	// A frame inline, then one sent ahead and named by two steps (they
	// share it), then a step naming a frame that never came (it has none).
	if rep := r.sendFrame(t, "f1", frame); !rep.OK {
		t.Fatalf("frame sent ahead: %+v", rep)
	}
	steps := []StepRequest{
		{ID: "0", Step: fillStep("Name", "Ada"), Frame: frame},
		{ID: "1", Step: fillStep("Name", "Lovelace"), FrameID: "f1"},
		{ID: "2", Step: fillStep("City", "London"), FrameID: "f1"},
		{ID: "3", Step: fillStep("Email", "ada@example.org"), FrameID: "never"},
	}
	for i, req := range steps {
		req.Origin = "http://127.0.0.1:8080"
		if rep := r.send(t, req); !rep.OK {
			t.Fatalf("step %d: %+v", i, rep)
		}
	}
	// Steps that name a frame still being captured: it arrives after them,
	// or its capture fails, or it never comes before the stop. Each step
	// gets a frame: its own, or else the newest the recording has.
	img.Set(5, 5, color.RGBA{G: 255, A: 255})
	var later bytes.Buffer
	png.Encode(&later, img)
	for i, id := range []string{"p1", "p2", "p3"} {
		req := StepRequest{ID: fmt.Sprint("p", i), Origin: "http://127.0.0.1:8080", Step: fillStep("Phone", fmt.Sprint(i)), FrameID: id, FramePending: true}
		if rep := r.send(t, req); !rep.OK {
			t.Fatalf("pending step %d: %+v", i, rep)
		}
	}
	if rep := r.sendFrame(t, "p1", base64.StdEncoding.EncodeToString(later.Bytes())); !rep.OK {
		t.Fatalf("late frame: %+v", rep)
	}
	if rep := r.sendFrame(t, "p2", ""); !rep.OK {
		t.Fatalf("failed capture: %+v", rep)
	}
	if _, err := rec.StopRecording(ctx, started.Ref()); err != nil {
		t.Fatal(err)
	}
	got, err := rec.FetchRecording(ctx, started.Ref())
	if err != nil || len(got.Steps) != 7 || got.Steps[1].Value.Raw != "Lovelace" {
		t.Fatalf("fetched %+v, %v", got, err)
	}
	for _, s := range got.Steps[4:] {
		opened, err := rec.Recordings().Frame(ctx, started.RecordingID, s.ScreenshotRef)
		if err != nil || !bytes.Equal(opened, later.Bytes()) {
			t.Errorf("step %d, named pending: frame %v; want the late frame", s.Seq, err)
		}
	}
	if got.Steps[1].ScreenshotRef != got.Steps[2].ScreenshotRef || got.Steps[0].ScreenshotRef == got.Steps[1].ScreenshotRef {
		t.Errorf("frame refs %q %q %q: want the two steps naming f1 to share one ref, the inline one its own",
			got.Steps[0].ScreenshotRef, got.Steps[1].ScreenshotRef, got.Steps[2].ScreenshotRef)
	}
	if got.Steps[3].ScreenshotRef != "" {
		t.Errorf("a step naming a frame that never came refers to %q", got.Steps[3].ScreenshotRef)
	}
	for _, s := range got.Steps[:3] {
		if s.ScreenshotRef == "" {
			t.Fatalf("step %d has no frame", s.Seq)
		}
		opened, err := rec.Recordings().Frame(ctx, started.RecordingID, s.ScreenshotRef)
		if err != nil || !bytes.Equal(opened, buf.Bytes()) {
			t.Fatalf("frame of step %d: %v", s.Seq, err)
		}
		frames, _ := js.ObjectStore(ctx, events.ObjectFrames)
		stored, _ := frames.GetBytes(ctx, started.RecordingID+"/"+s.ScreenshotRef)
		if bytes.Contains(stored, buf.Bytes()[:32]) {
			t.Fatal("the frame is stored in the clear")
		}
	}
}
