package client_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/ops"
)

// TestMalformedAndRefusedReplies: a service that answers garbage, refuses,
// or is not there gives an error that says so, never a zero value.
func TestMalformedAndRefusedReplies(t *testing.T) {
	s, daemonNC, _ := natstest.Start(t, "m_test")
	cli, err := nats.Connect(s.ClientURL(), embedded.CLIOptions(s.Password(embedded.RoleCLI))...)
	if err != nil {
		t.Fatal(err)
	}
	c := client.New(cli, "m_test")
	t.Cleanup(c.Close)
	reply := func(subject string, data []byte, header nats.Header) {
		sub, err := daemonNC.Subscribe(subject, func(m *nats.Msg) {
			_ = m.RespondMsg(&nats.Msg{Data: data, Header: header})
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = sub.Unsubscribe() })
	}
	refused := nats.Header{}
	refused.Set(micro.ErrorCodeHeader, "400")
	refused.Set(micro.ErrorHeader, "nope")
	reply(events.LocalRecordingsList, []byte(`{"recordings": 7}`), nil)
	reply(events.LocalSkillList, []byte(`not json`), nil)
	reply(events.LocalSkillGet, []byte(`{"error":{"code":"RECORDING_NOT_FOUND","message":"no such skill"}}`), refused)
	reply(events.LocalRecordingsFrame, nil, refused)
	reply(events.LocalPair, []byte(`{}`), nil)
	reply(events.LocalStatus, []byte(`{"pid": "one"}`), nil)
	if err := daemonNC.Flush(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	if l, err := c.List(ctx); err == nil || !strings.Contains(err.Error(), "list recordings: malformed reply") {
		t.Errorf("List(malformed) = %v, %v; want a malformed-reply error", l, err)
	}
	if _, err := c.Skills(ctx); err == nil || !strings.Contains(err.Error(), "ask the daemon ("+events.LocalSkillList+")") {
		t.Errorf("Skills(malformed) = %v; want an error naming the service", err)
	}
	var e *ops.Error
	if _, err := c.Skill(ctx, "sk_x", 0); !errors.As(err, &e) || e.Code != ops.CodeRecordingNotFound || e.Message != "no such skill" {
		t.Errorf("Skill(refused) = %v; want the refusal as *ops.Error", err)
	}
	if _, err := c.Frame(ctx, "rec_x", "f1"); !errors.As(err, &e) || e.Message != "nope" {
		t.Errorf("Frame(refused in headers only) = %v; want the refusal as *ops.Error", err)
	}
	if _, err := c.Pairing(ctx); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("Pairing(no URL) = %v; want malformed", err)
	}
	if _, err := c.Status(ctx); err == nil || !strings.Contains(err.Error(), "daemon status is malformed") {
		t.Errorf("Status(malformed) = %v; want malformed", err)
	}
	// Nothing serves the replay key: the error says so and is no refusal.
	if _, err := c.ReplayKey(ctx); !errors.Is(err, nats.ErrNoResponders) || errors.As(err, &e) {
		t.Errorf("ReplayKey(no service) = %v; want no responders", err)
	}
	if _, err := c.DraftSkill(ctx, api.SkillBuildRequest{}); !errors.Is(err, nats.ErrNoResponders) {
		t.Errorf("DraftSkill(no service) = %v; want no responders", err)
	}
	// Nor the consent queue: the error says what to do.
	if _, err := c.Consent().List(ctx); err == nil || !strings.Contains(err.Error(), "does not answer consent requests") {
		t.Errorf("Consent().List(no service) = %v; want a no-responders explanation", err)
	}
	// Wire ops: nothing serves them here either.
	if _, err := c.Fetch(ctx, "rec_x"); !errors.Is(err, nats.ErrNoResponders) {
		t.Errorf("Fetch(no shim) = %v; want no responders", err)
	}
}
