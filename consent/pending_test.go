package consent

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
)

// waitListed waits until n prompts are pending.
func waitListed(t *testing.T, q *Pending, n int) []api.ConsentPrompt {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if ps := q.List(); len(ps) == n {
			return ps
		}
		if time.Now().After(deadline) {
			t.Fatalf("List() has %d prompts; want %d", len(q.List()), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestPending(t *testing.T) {
	q := NewPending()
	if ok, _ := q.Available(); !ok {
		t.Fatal("Pending is not available")
	}
	type result struct {
		d   Decision
		err error
	}
	prompts := []api.ConsentPrompt{NewPrompt(extractReq, "a"), NewPrompt(cloudReq, "b"), NewPrompt(extractReq, "c")}
	results := make([]chan result, len(prompts))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i, p := range prompts {
		results[i] = make(chan result, 1)
		go func() {
			d, err := q.Ask(ctx, p)
			results[i] <- result{d, err}
		}()
		waitListed(t, q, i+1) // so the order is known
	}
	ps := q.List()
	for i := range ps {
		if ps[i].ID != prompts[i].ID {
			t.Fatalf("List()[%d] = %s; want %s (oldest first)", i, ps[i].ID, prompts[i].ID)
		}
	}
	if _, err := q.Ask(ctx, prompts[0]); err == nil {
		t.Fatal("Ask with an id already waiting = nil; want an error")
	}

	if err := q.Approve(prompts[0].ID, true); err != nil {
		t.Fatal(err)
	}
	if r := <-results[0]; r.err != nil || r.d != (Decision{Approved: true, Remember: true}) {
		t.Fatalf("Ask after Approve(remember) = %+v, %v", r.d, r.err)
	}
	if err := q.Deny(prompts[1].ID); err != nil {
		t.Fatal(err)
	}
	if r := <-results[1]; r.err != nil || r.d != (Decision{}) {
		t.Fatalf("Ask after Deny = %+v, %v", r.d, r.err)
	}
	for _, id := range []string{prompts[0].ID, prompts[1].ID, "nope", ""} {
		if err := q.Approve(id, false); !errors.Is(err, ErrNoSuchPrompt) {
			t.Errorf("Approve(%q) after it was answered = %v; want ErrNoSuchPrompt", id, err)
		}
		if err := q.Deny(id); !errors.Is(err, ErrNoSuchPrompt) {
			t.Errorf("Deny(%q) = %v; want ErrNoSuchPrompt", id, err)
		}
	}
	if ps := q.List(); len(ps) != 1 || ps[0].ID != prompts[2].ID {
		t.Fatalf("List() = %v; want only the unanswered prompt", ps)
	}
	cancel()
	if r := <-results[2]; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("Ask after its context ended = %+v, %v; want context.Canceled", r.d, r.err)
	}
	waitListed(t, q, 0)
}
