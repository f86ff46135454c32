package consent

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
)

// scripted is a prompter that answers after a delay, fails, or waits for
// ctx; closed records that its "dialog" was taken down.
type scripted struct {
	name     string
	off      string // non-empty: unavailable for this reason
	after    time.Duration
	decision Decision
	err      error
	block    bool
	asked    atomic.Int32
	closed   atomic.Bool
}

func (s *scripted) Name() string { return s.name }

func (s *scripted) Available() (bool, string) { return s.off == "", s.off }

func (s *scripted) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	s.asked.Add(1)
	if p.ID == "" || p.Body == "" {
		return Decision{}, errors.New("empty prompt")
	}
	if s.block {
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond) // closing a dialog takes a moment
		s.closed.Store(true)
		return Decision{}, ctx.Err()
	}
	select {
	case <-time.After(s.after):
		return s.decision, s.err
	case <-ctx.Done():
		s.closed.Store(true)
		return Decision{}, ctx.Err()
	}
}

// answerFirst answers the first prompt that becomes pending, as a person
// at another terminal would; it gives up after 10 s, and the test's own
// wait then fails.
func answerFirst(q *Pending, answer func(id string) error) {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ps := q.List(); len(ps) > 0 {
			_ = answer(ps[0].ID)
			return
		}
	}
}

func TestApproverRememberedChoice(t *testing.T) {
	s := startShim(t)
	choices := s.choices(t)
	ctx := context.Background()
	for _, approved := range []bool{true, false} {
		if err := choices.Set(ctx, cloudReq.Kind(), approved); err != nil {
			t.Fatal(err)
		}
		never := &scripted{name: "never", block: true}
		a := &Approver{Choices: choices, Prompters: []Prompter{never}}
		v, err := a.Decide(ctx, Request{ModeCopilot, RouteScreenshotsToCloud, []string{"browser", "floor", "floor"}}, "")
		if err != nil || v != (Verdict{Approved: approved, By: ByRemembered}) {
			t.Fatalf("Decide with remembered %v = %+v, %v; want the remembered answer", approved, v, err)
		}
		if never.asked.Load() != 0 {
			t.Fatal("a prompter was asked despite a remembered choice")
		}
	}
	// Another kind is not covered by it.
	fast := &scripted{name: "fast", decision: Decision{Approved: true}}
	a := &Approver{Choices: choices, Prompters: []Prompter{fast}}
	if v, err := a.Decide(ctx, extractReq, ""); err != nil || v.By != "fast" {
		t.Fatalf("Decide for another kind = %+v, %v; want it asked", v, err)
	}
}

func TestApproverFirstAnswerWins(t *testing.T) {
	s := startShim(t)
	choices := s.choices(t)
	pending := NewPending()
	slow := &scripted{name: "slow", block: true}
	fast := &scripted{name: "fast", after: 20 * time.Millisecond, decision: Decision{Approved: true}}
	off := &scripted{name: "off", off: "no display"}
	a := &Approver{Choices: choices, Prompters: []Prompter{off, slow, pending, fast}}
	v, err := a.Decide(context.Background(), extractReq, "the platform")
	if err != nil || v != (Verdict{Approved: true, By: "fast"}) {
		t.Fatalf("Decide = %+v, %v; want approved by fast", v, err)
	}
	if !slow.closed.Load() {
		t.Error("the slower prompter's dialog was still up when Decide returned")
	}
	if n := len(pending.List()); n != 0 {
		t.Errorf("%d prompts still pending after the decision; want 0", n)
	}
	if off.asked.Load() != 0 {
		t.Error("an unavailable prompter was asked")
	}
	if _, ok, _ := choices.Get(context.Background(), extractReq.Kind()); ok {
		t.Error("a decision without Remember was remembered")
	}
}

func TestApproverPendingAnswerIsRemembered(t *testing.T) {
	s := startShim(t)
	choices := s.choices(t)
	pending := NewPending()
	slow := &scripted{name: "slow", block: true}
	a := &Approver{Choices: choices, Prompters: []Prompter{slow, pending}}
	go answerFirst(pending, pending.Deny)
	v, err := a.Decide(context.Background(), cloudReq, "")
	if err != nil || v != (Verdict{By: "pending"}) {
		t.Fatalf("Decide = %+v, %v; want denied by pending", v, err)
	}
	go answerFirst(pending, func(id string) error { return pending.Approve(id, true) })
	if v, err := a.Decide(context.Background(), cloudReq, ""); err != nil || !v.Approved {
		t.Fatalf("Decide = %+v, %v; want approved", v, err)
	}
	c, ok, err := choices.Get(context.Background(), cloudReq.Kind())
	if err != nil || !ok || !c.Approved {
		t.Fatalf("remembered choice = %+v, %v, %v; want approved", c, ok, err)
	}
}

func TestApproverTimeoutDenies(t *testing.T) {
	s := startShim(t)
	choices := s.choices(t)
	pending := NewPending()
	slow := &scripted{name: "slow", block: true}
	a := &Approver{Choices: choices, Prompters: []Prompter{slow, pending}, Timeout: 100 * time.Millisecond}
	start := time.Now()
	v, err := a.Decide(context.Background(), extractReq, "")
	if err != nil || v != (Verdict{By: ByTimeout}) {
		t.Fatalf("Decide = %+v, %v; want a timeout that is not approved", v, err)
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 5*time.Second {
		t.Errorf("Decide took %s; want about the 100 ms timeout", d)
	}
	if !slow.closed.Load() || len(pending.List()) != 0 {
		t.Error("a prompt outlived the timeout")
	}
	if cs, _ := choices.List(context.Background()); len(cs) != 0 {
		t.Errorf("a timeout was remembered: %+v", cs)
	}
}

func TestApproverFailures(t *testing.T) {
	boom := errors.New("cannot open display")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		req     Request
		ps      []Prompter
		wantErr error
		want    string
	}{
		{"no prompters", context.Background(), extractReq, nil, ErrNoPrompter, ""},
		{"none available", context.Background(), extractReq, []Prompter{&scripted{name: "zenity", off: "no display"}}, ErrNoPrompter, "zenity: no display"},
		{"all fail", context.Background(), extractReq, []Prompter{&scripted{name: "a", err: boom}, &scripted{name: "b", err: boom}}, boom, "every way"},
		{"caller gave up", cancelled, extractReq, []Prompter{&scripted{name: "slow", block: true}}, context.Canceled, ""},
		{"invalid request", context.Background(), Request{Mode: "x"}, []Prompter{NewPending()}, ErrInvalidRequest, "mode"},
	}
	for _, tt := range tests {
		a := &Approver{Prompters: tt.ps}
		v, err := a.Decide(tt.ctx, tt.req, "")
		if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.want) || v.Approved {
			t.Errorf("Decide(%s) = %+v, %v; want %v mentioning %q", tt.name, v, err, tt.wantErr, tt.want)
		}
	}
	// One failing prompter does not stop another from answering.
	a := &Approver{Prompters: []Prompter{&scripted{name: "a", err: boom}, &scripted{name: "b", after: 30 * time.Millisecond, decision: Decision{Approved: true}}}}
	if v, err := a.Decide(context.Background(), extractReq, ""); err != nil || v.By != "b" {
		t.Errorf("Decide with one failing prompter = %+v, %v; want b's answer", v, err)
	}
}
