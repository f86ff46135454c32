package recorder

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/store"
)

// burst is a source that emits its steps as soon as it starts.
type burst struct {
	name     string
	channels []string
	steps    []events.Step
	ok       bool
}

func (b *burst) Name() string       { return b.name }
func (b *burst) Channels() []string { return b.channels }
func (b *burst) Available() (bool, string) {
	if !b.ok {
		return false, "the test made it unavailable"
	}
	return true, ""
}
func (b *burst) Start(_ context.Context, _ capture.Session, sink capture.Sink) error {
	for _, s := range b.steps {
		if err := sink.Emit(s); err != nil {
			return err
		}
	}
	return nil
}
func (b *burst) Stop() error { return nil }

// distinctive is a value no other part of a test writes.
const distinctive = "ZEBRA-7731-QUOKKA"

func formSteps() []events.Step {
	dom := func(label string) *events.Enrichment {
		return &events.Enrichment{Kind: events.KindDOM, Selectors: []events.Selector{{Strategy: events.StrategyLabel, Value: label}}, Role: "textbox", Label: label}
	}
	step := func(action string, e *events.Enrichment, v *events.Value) events.Step {
		return events.Step{Actor: events.ActorHuman, Action: action, Cursor: []int{10, 20}, Outcome: events.OutcomeOK, Enrichment: e, Value: v, ActiveApp: "Chromium"}
	}
	return []events.Step{
		step(events.ActionNavigate, nil, nil),
		step(events.ActionFill, dom("First Name"), &events.Value{Raw: "John", Type: events.ValueText}),
		step(events.ActionFill, dom("Code"), &events.Value{Raw: distinctive, Type: events.ValueText}),
		step(events.ActionFill, dom("Password"), &events.Value{Raw: "hunter2", Type: events.ValueSecret}),
		step(events.ActionClick, &events.Enrichment{Kind: events.KindAX, Role: "button", Label: "OK"}, nil),
		step(events.ActionSubmit, dom("Save"), nil),
	}
}

type rig struct {
	rec *Recorder
	js  jetstream.JetStream
	nc  *nats.Conn
}

func newRig(t *testing.T, consent ConsentChecker, sources ...capture.Source) *rig {
	t.Helper()
	_, nc, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	if consent == nil {
		consent = func(context.Context, string, string, string, []string) error { return nil }
	}
	rec := New(Config{JS: js, NC: nc, MachineID: "m_test", Registry: capture.NewRegistry(sources...), Consent: consent,
		Keys: store.FileKeyStore{Dir: t.TempDir()}})
	if err := rec.StartRedactStage(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rec.Close)
	return &rig{rec: rec, js: js, nc: nc}
}

func startReq(mode string, channels ...string) ops.StartRequest {
	return ops.StartRequest{Mode: mode, InterpretationRoute: interpret.RouteExtractThenCloud, Channels: channels, ConsentToken: "token"}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var e *ops.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v; want code %s", err, code)
	}
}

func TestRecordStopFetchReview(t *testing.T) {
	src := &burst{name: "burst", channels: []string{capture.ChannelFloor, capture.ChannelBrowser}, steps: formSteps(), ok: true}
	r := newRig(t, nil, src)
	ctx := context.Background()

	started, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "browser", "floor", "floor"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor")); err == nil {
		t.Fatal("second start succeeded")
	} else {
		wantCode(t, err, ops.CodeRecordingAlreadyActive)
	}
	sum, err := r.rec.StopRecording(ctx, started.Ref())
	if err != nil {
		t.Fatal(err)
	}
	want := ops.Summary{RecordingID: started.RecordingID, StepCount: 6, EnrichmentCoverage: ops.Coverage{DOM: 4, AX: 1, None: 1}}
	sum.DurationSeconds = 0
	if !reflect.DeepEqual(sum, want) {
		t.Fatalf("summary %+v; want %+v", sum, want)
	}

	rec, err := r.rec.FetchRecording(ctx, started.Ref())
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Validate(); err != nil {
		t.Fatalf("fetched recording invalid: %v", err)
	}
	for i, s := range rec.Steps {
		if s.Seq != uint64(i+1) {
			t.Fatalf("step %d has seq %d; want %d", i, s.Seq, i+1)
		}
	}
	if v := rec.Steps[3].Value; v.Raw != "" || !rec.Steps[3].Redacted {
		t.Fatalf("password step stored with value or unmarked: %+v", rec.Steps[3])
	}
	if rec.Steps[2].Value.Raw != distinctive {
		t.Fatalf("step 3 value lost before review")
	}

	// The review removes step 1 and redacts step 3: both gone from the store.
	applied, err := r.rec.ApplyReview(ctx, ops.ReviewRequest{RecordingID: started.RecordingID, RemovedStepSeqs: []uint64{1}, RedactedStepSeqs: []uint64{3}})
	if err != nil || applied.StepCount != 5 {
		t.Fatalf("ApplyReview = %+v, %v; want 5 steps", applied, err)
	}
	rec, _ = r.rec.FetchRecording(ctx, started.Ref())
	if len(rec.Steps) != 5 || rec.Steps[0].Seq != 2 || rec.Steps[1].Value.Raw != "" || !rec.Steps[1].Redacted {
		t.Fatalf("after review: %+v", rec.Steps)
	}
	if n := countInStream(t, r.js, events.StreamRecordings, distinctive); n != 0 {
		t.Fatalf("the redacted value is still in %d stored messages", n)
	}
	if n := countInStream(t, r.js, events.StreamRecordings, "hunter2"); n != 0 {
		t.Fatalf("the password is in %d stored messages", n)
	}
	if _, err := r.rec.ApplyReview(ctx, ops.ReviewRequest{RecordingID: started.RecordingID, RemovedStepSeqs: []uint64{99}}); err == nil {
		t.Fatal("review of a step that does not exist succeeded")
	}

	// Stopping again answers the summary again; unknown ids are not found.
	if again, err := r.rec.StopRecording(ctx, started.Ref()); err != nil || again.StepCount != 5 {
		t.Fatalf("second stop = %+v, %v", again, err)
	}
	for _, id := range []string{"rec_nope", "rec_a.b", "rec_>", ""} {
		_, err := r.rec.FetchRecording(ctx, ops.RecordingRef{RecordingID: id})
		wantCode(t, err, ops.CodeRecordingNotFound)
	}
	list, err := r.rec.Recordings().List(ctx)
	if err != nil || len(list) != 1 || list[0].State != "stopped" || list[0].RecordingID != started.RecordingID {
		t.Fatalf("List = %+v, %v", list, err)
	}
}

// countInStream counts the stored messages of stream whose bytes contain s.
func countInStream(t *testing.T, js jetstream.JetStream, stream, s string) int {
	t.Helper()
	ctx := context.Background()
	st, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := st.Info(ctx)
	n := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && seq > 0; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if err != nil {
			continue // deleted
		}
		if bytes.Contains(m.Data, []byte(s)) {
			n++
		}
	}
	return n
}

func TestStartRefusals(t *testing.T) {
	floor := &burst{name: "floor", channels: []string{capture.ChannelFloor}, ok: true}
	ax := &burst{name: "ax", channels: []string{capture.ChannelDesktopAX}, ok: false}
	refuse := func(_ context.Context, token, _, _ string, _ []string) error {
		if token == "bad" {
			return errors.New("token forged")
		}
		return nil
	}
	r := newRig(t, refuse, floor, ax)
	ctx := context.Background()
	cases := []struct {
		req  ops.StartRequest
		code string
	}{
		{ops.StartRequest{Mode: "party", InterpretationRoute: interpret.RouteExtractThenCloud, Channels: []string{"floor"}, ConsentToken: "t"}, ops.CodeInvalidRequest},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: "telepathy", Channels: []string{"floor"}, ConsentToken: "t"}, ops.CodeInvalidRequest},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: interpret.RouteLocalVLM, ConsentToken: "t"}, ops.CodeInvalidRequest},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: interpret.RouteLocalVLM, Channels: []string{"smell"}, ConsentToken: "t"}, ops.CodeInvalidRequest},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: interpret.RouteLocalVLM, Channels: []string{"desktop_ax"}, ConsentToken: "t"}, ops.CodeRecordingChannelUnavailable},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: interpret.RouteLocalVLM, Channels: []string{"browser"}, ConsentToken: "t"}, ops.CodeRecordingChannelUnavailable},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: interpret.RouteLocalVLM, Channels: []string{"floor"}}, ops.CodeConsentRequired},
		{ops.StartRequest{Mode: "copilot", InterpretationRoute: interpret.RouteLocalVLM, Channels: []string{"floor"}, ConsentToken: "bad"}, ops.CodeConsentRequired},
	}
	for _, tc := range cases {
		_, err := r.rec.StartRecording(ctx, tc.req)
		var e *ops.Error
		if !errors.As(err, &e) || e.Code != tc.code {
			t.Errorf("StartRecording(%+v) = %v; want %s", tc.req, err, tc.code)
		}
	}
}

// TestOneTokenOneStart: 50 concurrent starts with one single-use token; the
// checker is called under the recorder's lock, so exactly one wins and the
// rest are CONSENT_REQUIRED.
func TestOneTokenOneStart(t *testing.T) {
	var used atomic.Bool
	once := func(context.Context, string, string, string, []string) error {
		if !used.CompareAndSwap(false, true) {
			return errors.New("consent token already used")
		}
		return nil
	}
	r := newRig(t, once, &burst{name: "floor", channels: []string{capture.ChannelFloor}, ok: true})
	var wg sync.WaitGroup
	var won, refused atomic.Int64
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := r.rec.StartRecording(context.Background(), startReq(capture.ModeDemonstration, "floor"))
			var e *ops.Error
			switch {
			case err == nil:
				won.Add(1)
			case errors.As(err, &e) && e.Code == ops.CodeConsentRequired:
				refused.Add(1)
			default:
				t.Errorf("start: %v", err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 || refused.Load() != 49 {
		t.Fatalf("%d starts won, %d refused; want 1 and 49", won.Load(), refused.Load())
	}
}

func TestCopilotStreamsLive(t *testing.T) {
	steps := formSteps()
	r := newRig(t, nil, &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: steps, ok: true})
	live, err := r.nc.SubscribeSync("rec.*.live")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	started, err := r.rec.StartRecording(ctx, startReq(capture.ModeCopilot, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.rec.StopRecording(ctx, started.Ref()); err != nil {
		t.Fatal(err)
	}
	for i := range steps {
		m, err := live.NextMsg(2 * time.Second)
		if err != nil {
			t.Fatalf("live step %d: %v", i+1, err)
		}
		s, err := ops.DecodeLiveStep(m.Data)
		if err != nil || s.Seq != uint64(i+1) {
			t.Fatalf("live step %d = %+v, %v", i+1, s, err)
		}
		if s.Value != nil && s.Value.Type == events.ValueSecret && s.Value.Raw != "" {
			t.Fatal("a secret went out live")
		}
	}
}

// TestLiveOnlyInCopilotAndNeverBlocking: a demonstration streams nothing
// live; a co-pilot subscriber that never reads neither slows nor blocks
// capture (every step still lands), since live steps are fire-and-forget.
func TestLiveOnlyInCopilotAndNeverBlocking(t *testing.T) {
	many := make([]events.Step, 0, 2000)
	for range 400 {
		many = append(many, formSteps()[:5]...)
	}
	r := newRig(t, nil, &burst{name: "floor", channels: []string{capture.ChannelFloor}, steps: many, ok: true})
	ctx := context.Background()

	watcher, err := r.nc.SubscribeSync("rec.*.live")
	if err != nil {
		t.Fatal(err)
	}
	started, err := r.rec.StartRecording(ctx, startReq(capture.ModeDemonstration, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.rec.StopRecording(ctx, started.Ref()); err != nil {
		t.Fatal(err)
	}
	if m, err := watcher.NextMsg(300 * time.Millisecond); err == nil {
		t.Fatalf("a demonstration streamed %q live", m.Subject)
	}

	// A subscriber that never reads, with a small buffer: the server drops
	// its messages (slow consumer); capture does not wait for it.
	stuck, err := r.nc.SubscribeSync("rec.*.live")
	if err != nil {
		t.Fatal(err)
	}
	_ = stuck.SetPendingLimits(10, 1<<16)
	begin := time.Now()
	started, err = r.rec.StartRecording(ctx, startReq(capture.ModeCopilot, "floor"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := r.rec.StopRecording(ctx, started.Ref())
	if err != nil {
		t.Fatal(err)
	}
	if sum.StepCount != len(many) {
		t.Fatalf("%d of %d steps recorded with a stuck live subscriber", sum.StepCount, len(many))
	}
	dropped, _ := stuck.Dropped()
	t.Logf("%d steps captured in %s with a live subscriber that never reads (%d live steps dropped for it)", len(many), time.Since(begin), dropped)
}
