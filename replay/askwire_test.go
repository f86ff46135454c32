package replay

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/internal/natstest"
)

// TestSendAnswerBelievesOnlyASealedReply: a reply sealed under the
// question's key is the run's; a plain refusal is believed only when no
// sealed reply follows, and no run at all is nats.ErrNoResponders.
func TestSendAnswerBelievesOnlyASealedReply(t *testing.T) {
	_, nc, _ := natstest.Start(t, "m_test")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const run = "run_20261206T080000_0000000000000001"
	token := NewAskToken()
	key, err := DeriveAskKey(run, token)
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := key.SealAnswer(Answer{Row: 2, Answer: "42"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SendAnswer(ctx, nc, run, key, sealed); !errors.Is(err, nats.ErrNoResponders) {
		t.Errorf("SendAnswer(no run waiting) = %v; want nats.ErrNoResponders", err)
	}

	// A program that refuses in the clear, then the run's sealed reply.
	sub, err := nc.Subscribe(key.Subject(), func(m *nats.Msg) {
		plain, _ := json.Marshal(AnswerReply{Error: "not accepted"})
		_ = m.Respond(plain)
		_ = m.Respond(key.SealReply(m.Data, AnswerReply{Row: 2, Step: 3}))
	})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := SendAnswer(ctx, nc, run, key, sealed); err != nil || r.Row != 2 || r.Step != 3 {
		t.Errorf("SendAnswer(a plain refusal, then the sealed reply) = %+v, %v; want row 2, step 3", r, err)
	}
	_ = sub.Unsubscribe()

	// Only a plain refusal: believed after the grace.
	if _, err := nc.Subscribe(key.Subject(), func(m *nats.Msg) {
		plain, _ := json.Marshal(AnswerReply{Error: "not accepted"})
		_ = m.Respond(plain)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := SendAnswer(ctx, nc, run, key, sealed); !errors.Is(err, ErrNotAccepted) {
		t.Errorf("SendAnswer(a plain refusal only) = %v; want ErrNotAccepted", err)
	}
}
