package ops

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/internal/natstest"
)

// TestLocalService: a local service answers as the CLI asks, over TCP with
// the CLI's own inbox; every refusal is the one envelope with micro's
// error headers, counted in the endpoint's stats; a panic or an internal
// error is INTERNAL without its detail; a reply over one message arrives
// whole; and after Stop nothing answers.
func TestLocalService(t *testing.T) {
	s, nc, _ := natstest.Start(t, "m_test")
	big := make([]byte, 3<<20+17)
	_, _ = rand.Read(big)
	echo := func(_ context.Context, body []byte) ([]byte, error) {
		var req struct {
			Say string `json:"say"`
		}
		if err := DecodeLocal("echo", body, &req); err != nil {
			return nil, err
		}
		return JSON(req, nil)
	}
	svc, err := ServeLocal(nc, LocalService{Name: "reprise-test", Endpoints: []Endpoint{
		{Name: "echo", Subject: "local.test.echo", Handle: echo},
		{Name: "big", Subject: "local.test.big", Handle: func(context.Context, []byte) ([]byte, error) { return big, nil }},
		{Name: "panic", Subject: "local.test.panic", Handle: func(context.Context, []byte) ([]byte, error) { panic("secret value") }},
		{Name: "fail", Subject: "local.test.fail", Handle: func(context.Context, []byte) ([]byte, error) { return nil, errors.New("disk says secret value") }},
		{Name: "refuse", Subject: "local.test.refuse", Handle: func(context.Context, []byte) ([]byte, error) {
			return nil, Errorf(CodeRecordingNotFound, "no such thing\r\nInjected: header; try `reprise recordings list`")
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cli, err := nats.Connect(s.ClientURL(), embedded.CLIOptions(s.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	var got struct {
		Say string `json:"say"`
	}
	if err := AskJSON(ctx, cli, "local.test.echo", map[string]string{"say": "hi"}, &got); err != nil || got.Say != "hi" {
		t.Fatalf("echo = %+v, %v", got, err)
	}
	if b, err := Ask(ctx, cli, "local.test.big", nil); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("big = %d bytes, %v; want %d", len(b), err, len(big))
	}
	for _, tc := range []struct {
		subject, body, code string
		notIn               string
	}{
		{"local.test.echo", `{"say":1}`, CodeInvalidRequest, ""},
		{"local.test.echo", `{"shout":"hi"}`, CodeInvalidRequest, ""},
		{"local.test.echo", `{} {}`, CodeInvalidRequest, ""},
		{"local.test.panic", ``, CodeInternal, "secret"},
		{"local.test.fail", ``, CodeInternal, "secret"},
		{"local.test.refuse", ``, CodeRecordingNotFound, ""},
	} {
		m, err := cli.Request(tc.subject, []byte(tc.body), 5*time.Second)
		if err != nil {
			t.Fatalf("%s %q: %v", tc.subject, tc.body, err)
		}
		var env ErrorReply
		if err := json.Unmarshal(m.Data, &env); err != nil || env.Error == nil || env.Error.Code != tc.code || env.Error.Message == "" {
			t.Errorf("%s %q body = %s; want {\"error\": {\"code\": %q, ...}}", tc.subject, tc.body, m.Data, tc.code)
		}
		if h := m.Header.Get(micro.ErrorCodeHeader); h != tc.code || m.Header.Get(micro.ErrorHeader) == "" {
			t.Errorf("%s %q headers = %v; want %s and a message", tc.subject, tc.body, m.Header, tc.code)
		}
		var e *Error
		if err := ReplyError(m); !errors.As(err, &e) || e.Code != tc.code || (tc.notIn != "" && strings.Contains(e.Message, tc.notIn)) {
			t.Errorf("ReplyError(%s %q) = %v; want a %s refusal without its detail", tc.subject, tc.body, err, tc.code)
		}
	}
	// The message reaches the header on one line, and whole in the body.
	m, err := cli.Request("local.test.refuse", nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if h := m.Header.Get(micro.ErrorHeader); strings.ContainsAny(h, "\r\n") || m.Header.Get("Injected") != "" {
		t.Errorf("error header %q, headers %v; want one line and no injected header", h, m.Header)
	}
	if err := ReplyError(m); err == nil || !strings.Contains(err.Error(), "\r\nInjected") {
		t.Errorf("ReplyError = %v; want the whole message from the body", err)
	}
	// Still serving.
	if err := AskJSON(ctx, cli, "local.test.echo", nil, &got); err != nil {
		t.Fatalf("echo after the refusals: %v", err)
	}

	// micro counts a request after its handler returns, which is after the
	// reply has left: the last refusal's count may trail its reply.
	want := map[string]int{"echo": 3, "big": 0, "panic": 1, "fail": 1, "refuse": 2}
	errs := map[string]int{}
	for {
		for _, ep := range svc.Stats().Endpoints {
			errs[ep.Name] = ep.NumErrors
		}
		if maps.Equal(errs, want) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("errors counted %v; want %v", errs, want)
		}
		time.Sleep(5 * time.Millisecond)
	}

	if err := svc.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := svc.Stop(); err != nil {
		t.Fatalf("Stop twice: %v", err)
	}
	if _, err := Ask(ctx, cli, "local.test.echo", nil); !errors.Is(err, nats.ErrNoResponders) {
		t.Fatalf("Ask after Stop = %v; want no responders", err)
	}
}

// TestReplyErrorHeadersOnly: a refusal whose body is not the envelope is
// still a refusal, read from the headers; a reply without them is none.
func TestReplyErrorHeadersOnly(t *testing.T) {
	m := &nats.Msg{Header: nats.Header{micro.ErrorCodeHeader: {"500"}, micro.ErrorHeader: {"stats failed"}}}
	var e *Error
	if err := ReplyError(m); !errors.As(err, &e) || e.Code != "500" || e.Message != "stats failed" {
		t.Errorf("ReplyError(headers only) = %v; want 500: stats failed", err)
	}
	if err := ReplyError(&nats.Msg{Data: []byte(`{"error":{"code":"X","message":"y"}}`)}); err != nil {
		t.Errorf("ReplyError(no headers) = %v; want nil: a body alone is a reply", err)
	}
}

// TestConcurrentEndpoint: a request that runs long on a Concurrent
// endpoint does not keep the next from being answered; refusals and big
// replies arrive as from any endpoint.
func TestConcurrentEndpoint(t *testing.T) {
	s, nc, _ := natstest.Start(t, "m_test")
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	big := strings.Repeat("x", 3<<20)
	_, err := ServeLocal(nc, LocalService{Name: "reprise-test", Endpoints: []Endpoint{{Name: "run", Subject: "local.test.run", Concurrent: true,
		Handle: func(ctx context.Context, body []byte) ([]byte, error) {
			switch string(body) {
			case `"hold"`:
				started <- struct{}{}
				<-release
				return JSON("held", nil)
			case `"big"`:
				return JSON(big, nil)
			}
			return nil, Errorf(CodeRecordingNotFound, "busy elsewhere")
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	cli, err := nats.Connect(s.ClientURL(), embedded.CLIOptions(s.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	held := make(chan error, 1)
	go func() {
		var got string
		err := AskJSON(ctx, cli, "local.test.run", "hold", &got)
		if err == nil && got != "held" {
			err = errors.New("answered " + got)
		}
		held <- err
	}()
	<-started
	var refused *Error
	if err := AskJSON(ctx, cli, "local.test.run", "other", new(string)); !errors.As(err, &refused) || refused.Code != CodeRecordingNotFound {
		t.Errorf("a second request while the first runs: %v; want its refusal, at once", err)
	}
	var got string
	if err := AskJSON(ctx, cli, "local.test.run", "big", &got); err != nil || got != big {
		t.Errorf("a 3 MB reply: %d bytes, %v; want it whole", len(got), err)
	}
	close(release)
	if err := <-held; err != nil {
		t.Errorf("the first request: %v", err)
	}
}
