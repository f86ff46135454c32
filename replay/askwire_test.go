package replay

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
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
	a := Answer{Row: 2, Answer: "42"}
	if _, err := SendAnswer(ctx, nc, key, Answer{Answer: strings.Repeat("x", MaxAnswerLen+1)}); err == nil || errors.Is(err, nats.ErrNoResponders) {
		t.Errorf("SendAnswer(an answer over MaxAnswerLen) = %v; want it refused before it is sent", err)
	}
	if _, err := SendAnswer(ctx, nc, key, a); !errors.Is(err, nats.ErrNoResponders) {
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
	if r, err := SendAnswer(ctx, nc, key, a); err != nil || r.Row != 2 || r.Step != 3 {
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
	if _, err := SendAnswer(ctx, nc, key, a); !errors.Is(err, ErrNotAccepted) {
		t.Errorf("SendAnswer(a plain refusal only) = %v; want ErrNotAccepted", err)
	}
}

// TestWaitAnswerTakesOnlyItsToken: an answer sealed with another token,
// or sent in the clear, is refused with the plain replies; the one sealed
// with the question's token is taken and told so.
func TestWaitAnswerTakesOnlyItsToken(t *testing.T) {
	_, nc, _ := natstest.Start(t, "m_test")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q := Question{RunID: "run_20261206T080000_0000000000000002", Row: 4, Step: 2}
	key, err := DeriveAskKey(q.RunID, NewAskToken())
	if err != nil {
		t.Fatal(err)
	}
	other, err := DeriveAskKey(q.RunID, NewAskToken())
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	var refusedOn, refusedPlain atomic.Int64
	type result struct {
		answer string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		a, err := WaitAnswer(ctx, nc, q, AnswerWait{Key: key, NotAccepted: "not accepted", Unsealed: "sealed only",
			Ready: func() { close(ready) },
			Refused: func(onQuestion bool) {
				if onQuestion {
					refusedOn.Add(1)
				} else {
					refusedPlain.Add(1)
				}
			}})
		done <- result{a, err}
	}()
	<-ready

	if _, err := SendAnswer(ctx, nc, other, Answer{Answer: "guess"}); !errors.Is(err, ErrNotAccepted) {
		t.Errorf("an answer sealed with another token: %v; want ErrNotAccepted", err)
	}
	plain, _ := json.Marshal(Answer{Answer: "guess"})
	if m, err := nc.RequestWithContext(ctx, events.AskSubject(q.RunID), plain); err != nil || !strings.Contains(string(m.Data), "sealed only") {
		t.Errorf("an answer in the clear: %v, %v; want the Unsealed reply", m, err)
	}
	if r, err := SendAnswer(ctx, nc, key, Answer{Answer: "42"}); err != nil || r.Row != 4 || r.Step != 2 {
		t.Errorf("the answer: %+v, %v; want taken for row 4, step 2", r, err)
	}
	if got := <-done; got.err != nil || got.answer != "42" {
		t.Errorf("WaitAnswer = %q, %v; want 42", got.answer, got.err)
	}
	if refusedOn.Load() != 1 || refusedPlain.Load() != 1 {
		t.Errorf("refused %d on the question subjects and %d in the clear; want 1 and 1", refusedOn.Load(), refusedPlain.Load())
	}
}

// TestAnswerRunSaysWhyNot: the person is told which run had no question
// waiting, and that a wrong token is theirs to fix.
func TestAnswerRunSaysWhyNot(t *testing.T) {
	_, nc, _ := natstest.Start(t, "m_test")
	const run = "run_20261206T080000_0000000000000003"
	key, err := DeriveAskKey(run, NewAskToken())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AnswerRun(context.Background(), nc, key, Answer{Answer: "42"}); err == nil || !strings.Contains(err.Error(), "no question is waiting in run "+run) {
		t.Errorf("AnswerRun(no run waiting) = %v; want it to say no question waits in %s", err, run)
	}
	other, err := DeriveAskKey(run, NewAskToken())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Subscribe(key.Subject(), func(m *nats.Msg) {
		_ = m.Respond(other.SealReply(m.Data, AnswerReply{Row: 1}))
		plain, _ := json.Marshal(AnswerReply{Error: "not accepted"})
		_ = m.Respond(plain)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := AnswerRun(context.Background(), nc, key, Answer{Answer: "42"}); !errors.Is(err, ErrNotAccepted) || !strings.Contains(err.Error(), "did not take the answer") {
		t.Errorf("AnswerRun(refused) = %v; want ErrNotAccepted, worded", err)
	}
}
