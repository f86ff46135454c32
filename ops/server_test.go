package ops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/internal/natstest"
)

const subject = "shim.m_test.ops"

// fakeService answers every op from the functions it is given, counting calls.
type fakeService struct {
	calls atomic.Int64
	start func(context.Context, StartRequest) (Started, error)
	stop  func(context.Context, RecordingRef) (Summary, error)
}

func (f *fakeService) RequestConsent(_ context.Context, r ConsentRequest) (ConsentResult, error) {
	f.calls.Add(1)
	return ConsentResult{Approved: true, Mode: r.Mode, InterpretationRoute: r.InterpretationRoute, ConsentToken: "t", ExpiresAt: 1}, nil
}

func (f *fakeService) StartRecording(ctx context.Context, r StartRequest) (Started, error) {
	f.calls.Add(1)
	if f.start != nil {
		return f.start(ctx, r)
	}
	return Started{RecordingID: fmt.Sprintf("rec_%d", f.calls.Load())}, nil
}

func (f *fakeService) StopRecording(ctx context.Context, r RecordingRef) (Summary, error) {
	f.calls.Add(1)
	if f.stop != nil {
		return f.stop(ctx, r)
	}
	return Summary{RecordingID: r.RecordingID, StepCount: 3}, nil
}

func (f *fakeService) FetchRecording(context.Context, RecordingRef) (*Data, error) {
	f.calls.Add(1)
	return nil, Errorf(CodeRecordingNotFound, "no such recording")
}

func (f *fakeService) ApplyReview(_ context.Context, r ReviewRequest) (ReviewApplied, error) {
	f.calls.Add(1)
	return ReviewApplied{RecordingID: r.RecordingID, StepCount: 1}, nil
}

type harness struct {
	srv *Server
	nc  *nats.Conn
	s   *embedded.Server
}

func newHarness(t *testing.T, svc Service, cfg Config) *harness {
	t.Helper()
	s, nc, js := natstest.Start(t, "m_test")
	cfg.Subject = subject
	srv, err := NewServer(context.Background(), js, svc, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(nc); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return &harness{srv: srv, nc: nc, s: s}
}

// client connects as the local CLI, the way a platform-side request arrives too.
func (h *harness) client(t *testing.T) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(h.s.ClientURL(), embedded.CLIOptions(h.s.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func request(t *testing.T, nc *nats.Conn, body string) Envelope {
	t.Helper()
	m, err := nc.Request(subject, []byte(body), 10*time.Second)
	if err != nil {
		t.Fatalf("request %s: %v", body, err)
	}
	var env Envelope
	if err := json.Unmarshal(m.Data, &env); err != nil {
		t.Fatalf("reply %s is not an envelope: %v", m.Data, err)
	}
	return env
}

func errorCode(t *testing.T, env Envelope) string {
	t.Helper()
	if env.Type != TypeError {
		return ""
	}
	var e Error
	if err := json.Unmarshal(env.Payload, &e); err != nil || e.Code == "" || e.Message == "" {
		t.Fatalf("ERROR payload %s lacks a code and a message", env.Payload)
	}
	return e.Code
}

func TestMalformedRequests(t *testing.T) {
	h := newHarness(t, &fakeService{}, Config{})
	nc := h.client(t)
	cases := []struct{ body, code, id string }{
		{``, CodeInvalidRequest, ""},
		{`nonsense`, CodeInvalidRequest, ""},
		{`[]`, CodeInvalidRequest, ""},
		{`null`, CodeInvalidRequest, ""},
		{`{"id":"a1"}`, CodeInvalidRequest, "a1"},
		{`{"type":7,"id":"a2"}`, CodeInvalidRequest, "a2"},
		{`{"type":"START_RECORDING"}`, CodeInvalidRequest, ""},
		{`{"type":"START_RECORDING","id":""}`, CodeInvalidRequest, ""},
		{`{"type":"START_RECORDING","id":"has space"}`, CodeInvalidRequest, ""},
		{`{"type":"START_RECORDING","id":"a3","extra":1}`, CodeInvalidRequest, "a3"},
		{`{"type":"FLY","id":"a4","payload":{}}`, CodeUnknownType, "a4"},
		{`{"type":"INTERPRET_TURN","id":"a5","payload":{}}`, CodeUnknownType, "a5"},
		{`{"type":"COMPUTER_RUN","id":"a10","payload":{"code":"1"}}`, CodeUnknownType, "a10"},
		{`{"type":"START_RECORDING","id":"a6","payload":[]}`, CodeInvalidRequest, "a6"},
		{`{"type":"START_RECORDING","id":"a7","payload":{"mode":1}}`, CodeInvalidRequest, "a7"},
		{`{"type":"START_RECORDING","id":"a8","payload":{"channels":"floor"}}`, CodeInvalidRequest, "a8"},
		{`{"type":"START_RECORDING","id":"a9","payload":{"mode":"demonstration","bogus":true}}`, CodeInvalidRequest, "a9"},
		{`{"type":"APPLY_RECORDING_REVIEW","id":"b1","payload":{"removed_step_seqs":[-1]}}`, CodeInvalidRequest, "b1"},
		{`{"type":"APPLY_RECORDING_REVIEW","id":"b2","payload":{"removed_step_seqs":["x"]}}`, CodeInvalidRequest, "b2"},
		{`{"type":"STOP_RECORDING","id":"b3","payload":{"recording_id":"r"}} trailing`, CodeInvalidRequest, ""},
	}
	for _, tc := range cases {
		env := request(t, nc, tc.body)
		if got := errorCode(t, env); got != tc.code || env.ID != tc.id {
			t.Errorf("request %s answered %s %s (id %q); want ERROR %s with id %q", tc.body, env.Type, env.Payload, env.ID, tc.code, tc.id)
		}
	}
	// And it still serves.
	if env := request(t, nc, `{"type":"STOP_RECORDING","id":"ok1","payload":{"recording_id":"rec_1"}}`); env.Type != TypeSummary {
		t.Fatalf("valid request after malformed ones answered %s %s", env.Type, env.Payload)
	}
}

// computerShim serves COMPUTER_RUN by echoing the code.
type computerShim struct{ *fakeService }

func (computerShim) ComputerRun(_ context.Context, req ComputerRunRequest) (ComputerRunResult, error) {
	return ComputerRunResult{Return: req.Code, ReadOnly: req.ReadOnly}, nil
}

func TestComputerRunPayloads(t *testing.T) {
	h := newHarness(t, computerShim{&fakeService{}}, Config{})
	nc := h.client(t)
	for _, body := range []string{
		`{"type":"COMPUTER_RUN","id":"c1","payload":{"code":1}}`,
		`{"type":"COMPUTER_RUN","id":"c2","payload":{"code":"x","bogus":true}}`,
		`{"type":"COMPUTER_RUN","id":"c3","payload":{"code":"x","timeout_seconds":"5"}}`,
		`{"type":"COMPUTER_RUN","id":"c4","payload":{"code":"x","read_only":"yes"}}`,
		`{"type":"COMPUTER_RUN","id":"c5","payload":[]}`,
	} {
		if got := errorCode(t, request(t, nc, body)); got != CodeInvalidRequest {
			t.Errorf("%s answered %s; want %s", body, got, CodeInvalidRequest)
		}
	}
	env := request(t, nc, `{"type":"COMPUTER_RUN","id":"c6","payload":{"code":"desktop.windows()","read_only":true}}`)
	var res ComputerRunResult
	if env.Type != TypeComputerResult || json.Unmarshal(env.Payload, &res) != nil || res.Return != "desktop.windows()" || !res.ReadOnly {
		t.Fatalf("a well-formed COMPUTER_RUN answered %s %s", env.Type, env.Payload)
	}
}

func TestIdempotentByID(t *testing.T) {
	svc := &fakeService{}
	h := newHarness(t, svc, Config{})
	nc := h.client(t)
	first := request(t, nc, `{"type":"START_RECORDING","id":"same","payload":{}}`)
	again := request(t, nc, `{"type":"START_RECORDING","id":"same","payload":{}}`)
	if string(first.Payload) != string(again.Payload) || svc.calls.Load() != 1 {
		t.Fatalf("repeat of id same answered %s then %s after %d calls; want the first answer, one call", first.Payload, again.Payload, svc.calls.Load())
	}
	// The same id with another op is another request: STOP answers as a
	// STOP (here: no such recording), never with START's cached reply.
	stop := request(t, nc, `{"type":"STOP_RECORDING","id":"same","payload":{"recording_id":"rec_x"}}`)
	if stop.Type == first.Type || string(stop.Payload) == string(first.Payload) {
		t.Fatalf("id same reused for STOP_RECORDING answered %s %s; want STOP's own answer", stop.Type, stop.Payload)
	}
	// Concurrent repeats of a new id: one call, one answer for all.
	var wg sync.WaitGroup
	replies := make([]string, 10) // under the in-flight limit
	for i := range replies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			replies[i] = string(request(t, nc, `{"type":"START_RECORDING","id":"burst","payload":{}}`).Payload)
		}()
	}
	wg.Wait()
	for _, r := range replies {
		if r != replies[0] {
			t.Fatalf("concurrent repeats answered differently: %q vs %q", r, replies[0])
		}
	}
	if n := svc.calls.Load(); n != 3 {
		t.Fatalf("service called %d times for two ids, one of them for two ops; want 3", n)
	}
}

func TestInternalErrorsAreNotKeptOrLeaked(t *testing.T) {
	var fail atomic.Bool
	fail.Store(true)
	svc := &fakeService{start: func(context.Context, StartRequest) (Started, error) {
		if fail.Load() {
			return Started{}, errors.New("disk on fire at /secret/path")
		}
		return Started{RecordingID: "rec_ok"}, nil
	}}
	h := newHarness(t, svc, Config{})
	nc := h.client(t)
	env := request(t, nc, `{"type":"START_RECORDING","id":"r1","payload":{}}`)
	if errorCode(t, env) != CodeInternal || strings.Contains(string(env.Payload), "secret") || strings.Contains(string(env.Payload), "fire") {
		t.Fatalf("internal failure answered %s; want INTERNAL without internals", env.Payload)
	}
	fail.Store(false)
	if env := request(t, nc, `{"type":"START_RECORDING","id":"r1","payload":{}}`); env.Type != TypeStarted {
		t.Fatalf("retry after INTERNAL answered %s; want a fresh attempt", env.Payload)
	}
}
