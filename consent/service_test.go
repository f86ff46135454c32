package consent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

func TestServiceOverTheCLIConnection(t *testing.T) {
	s := startShim(t)
	choices := s.choices(t)
	pending := NewPending()
	stop, err := Serve(s.nc, pending, choices)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	a := &Approver{Choices: choices, Prompters: []Prompter{pending}}
	cli := s.cli(t)
	ctx := context.Background()

	if ps, err := list(ctx, cli); err != nil || len(ps) != 0 {
		t.Fatalf("List with nothing waiting = %v, %v; want none", ps, err)
	}
	type verdict struct {
		v   Verdict
		err error
	}
	decide := func(req Request) chan verdict {
		ch := make(chan verdict, 1)
		go func() {
			v, err := a.Decide(ctx, req, "the platform")
			ch <- verdict{v, err}
		}()
		return ch
	}
	waitPrompt := func() api.ConsentPrompt {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			ps, err := list(ctx, cli)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) == 1 {
				return ps[0]
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatal("no prompt became pending")
		return api.ConsentPrompt{}
	}

	// Deny.
	ch := decide(cloudReq)
	p := waitPrompt()
	if !p.Calibrated || p.Kind != cloudReq.Kind() || p.Request.InterpretationRoute != RouteScreenshotsToCloud {
		t.Fatalf("listed prompt = %+v; want the calibrated cloud prompt", p)
	}
	if _, err := ask(ctx, cli, events.LocalConsentDeny, api.ConsentAnswerRequest{ID: p.ID}); err != nil {
		t.Fatalf("Deny: %v", err)
	}
	if r := <-ch; r.err != nil || r.v.Approved {
		t.Fatalf("Decide after Deny = %+v, %v", r.v, r.err)
	}
	var se *ops.Error
	if _, err := ask(ctx, cli, events.LocalConsentDeny, api.ConsentAnswerRequest{ID: p.ID}); !errors.As(err, &se) || se.Code != ops.CodeNotFound || strings.Contains(err.Error(), "reprise ") {
		t.Fatalf("Deny twice = %v; want NOT_FOUND, naming no command (the front end names its own)", err)
	}

	// Approve and remember.
	ch = decide(cloudReq)
	p = waitPrompt()
	if _, err := ask(ctx, cli, events.LocalConsentApprove, api.ConsentAnswerRequest{ID: p.ID, Remember: true}); err != nil {
		t.Fatalf("Approve: %v", err)
	}
	if r := <-ch; r.err != nil || !r.v.Approved || r.v.By != "pending" {
		t.Fatalf("Decide after Approve = %+v, %v", r.v, r.err)
	}
	r, err := ask(ctx, cli, events.LocalConsentChoices, nil)
	if cs := r.Choices; err != nil || len(cs) != 1 || cs[0].Kind != cloudReq.Kind() || !cs[0].Approved {
		t.Fatalf("Choices = %+v, %v; want the remembered approval", cs, err)
	}
	if v, err := a.Decide(ctx, cloudReq, ""); err != nil || v.By != ByRemembered {
		t.Fatalf("Decide with a remembered approval = %+v, %v", v, err)
	}

	// Forget one, then all.
	forget := func(req api.ConsentForgetRequest) (int, error) {
		r, err := ask(ctx, cli, events.LocalConsentForget, req)
		return r.Forgotten, err
	}
	if n, err := forget(api.ConsentForgetRequest{Kind: cloudReq.Kind()}); err != nil || n != 1 {
		t.Fatalf("Forget = %d, %v; want 1", n, err)
	}
	if n, err := forget(api.ConsentForgetRequest{Kind: cloudReq.Kind()}); err != nil || n != 0 {
		t.Fatalf("Forget again = %d, %v; want 0", n, err)
	}
	for _, k := range []string{cloudReq.Kind(), extractReq.Kind()} {
		if err := choices.Set(ctx, k, false); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := forget(api.ConsentForgetRequest{All: true}); err != nil || n != 2 {
		t.Fatalf("ForgetAll = %d, %v; want 2", n, err)
	}
	if r, err := ask(ctx, cli, events.LocalConsentChoices, nil); err != nil || len(r.Choices) != 0 {
		t.Fatalf("Choices after ForgetAll = %+v, %v; want none", r.Choices, err)
	}
	if _, err := forget(api.ConsentForgetRequest{Kind: "copilot.local_vlm.floor-browser"}); !errors.As(err, &se) || se.Code != ops.CodeInvalidRequest {
		t.Fatalf("Forget of a kind not in its written form = %v; want INVALID_REQUEST", err)
	}
}

// ask sends body to the service on subject as the CLI's client does
// (client.Consent), on the wire alone: the service is tested without the
// client, which stands above it. A refusal is the *ops.Error.
func ask(ctx context.Context, cli *nats.Conn, subject string, body any) (api.ConsentReply, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var r api.ConsentReply
	err := ops.AskJSON(ctx, cli, subject, body, &r)
	return r, err
}

// list returns the prompts waiting, as `reprise consent list` asks.
func list(ctx context.Context, cli *nats.Conn) ([]api.ConsentPrompt, error) {
	r, err := ask(ctx, cli, events.LocalConsentList, nil)
	return r.Prompts, err
}

func TestServiceMalformedRequests(t *testing.T) {
	s := startShim(t)
	stop, err := Serve(s.nc, NewPending(), s.choices(t))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cli := s.cli(t)
	tests := []struct {
		subject, body, code string
	}{
		{events.LocalConsentList, "garbage", ops.CodeInvalidRequest},
		{events.LocalConsentList, `{"extra":1}`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, "", ops.CodeInvalidRequest},
		{events.LocalConsentApprove, "{", ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `[]`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `{}`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `{"id":12}`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `{"id":"abc","remember":"yes"}`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `{"id":"abc","token":"x"}`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `{"id":"abc"} {"id":"def"}`, ops.CodeInvalidRequest},
		{events.LocalConsentApprove, `{"id":"abc"}`, ops.CodeNotFound},
		{events.LocalConsentDeny, `{"id":"abc","remember":true}`, ops.CodeInvalidRequest},
		{events.LocalConsentDeny, "\x00\xff", ops.CodeInvalidRequest},
		{events.LocalConsentDeny, `{"id":"abc"}`, ops.CodeNotFound},
		{events.LocalConsentChoices, "null null", ops.CodeInvalidRequest},
		{events.LocalConsentForget, `{}`, ops.CodeInvalidRequest},
		{events.LocalConsentForget, `{"kind":"copilot.local_vlm.floor","all":true}`, ops.CodeInvalidRequest},
		{events.LocalConsentForget, `{"kind":"../../etc"}`, ops.CodeInvalidRequest},
		{events.LocalConsentForget, `{"kind":"copilot.local_vlm.floor.>"}`, ops.CodeInvalidRequest},
		{events.LocalConsentForget, `{"all":"yes"}`, ops.CodeInvalidRequest},
		{events.LocalConsentForget, strings.Repeat("[", 100000), ops.CodeInvalidRequest},
	}
	for _, tt := range tests {
		m, err := cli.Request(tt.subject, []byte(tt.body), 5*time.Second)
		if err != nil {
			t.Fatalf("request %s %q: %v", tt.subject, tt.body, err)
		}
		var r api.ConsentReply
		var e *ops.Error
		if err := json.Unmarshal(m.Data, &r); err != nil || !errors.As(ops.ReplyError(m), &e) || e.Code != tt.code || e.Message == "" || r.OK {
			t.Errorf("%s %q answered %s %v; want error code %s with a message", tt.subject, tt.body, m.Data, m.Header, tt.code)
		}
	}
	// Still serving.
	if _, err := list(context.Background(), cli); err != nil {
		t.Fatalf("List after malformed requests: %v", err)
	}
}

func TestServeWithoutChoices(t *testing.T) {
	s := startShim(t)
	stop, err := Serve(s.nc, NewPending(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := ask(context.Background(), s.cli(t), events.LocalConsentChoices, nil); err == nil {
		t.Fatal("Choices with no store = nil; want an error")
	}
	if _, err := Serve(nil, NewPending(), nil); err == nil {
		t.Fatal("Serve(nil conn) = nil error")
	}
}
