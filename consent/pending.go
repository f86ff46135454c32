package consent

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/reprise-dev/reprise/api"
)

// ErrNoSuchPrompt means no prompt with that id is waiting: it was answered,
// timed out, or never existed.
var ErrNoSuchPrompt = errors.New("no such consent prompt is waiting")

// Pending is a Prompter for a person at another terminal: Ask puts the
// prompt in a queue and waits until `reprise consent approve ID` or `deny
// ID` answers it (through Serve), or ctx ends. It is safe for concurrent use.
type Pending struct {
	mu      sync.Mutex
	waiting map[string]*waiter
	seq     uint64
}

type waiter struct {
	prompt api.ConsentPrompt
	seq    uint64
	answer chan Decision // buffered 1; written once, under mu
}

var _ Prompter = (*Pending)(nil)

// NewPending returns an empty queue.
func NewPending() *Pending { return &Pending{waiting: make(map[string]*waiter)} }

// Name implements Prompter.
func (q *Pending) Name() string { return "pending" }

// Available implements Prompter: the queue can always be answered from the
// CLI.
func (q *Pending) Available() (bool, string) { return true, "" }

// Ask implements Prompter. p.ID must not be waiting already.
func (q *Pending) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	w := &waiter{prompt: p, answer: make(chan Decision, 1)}
	q.mu.Lock()
	if _, dup := q.waiting[p.ID]; dup || p.ID == "" {
		q.mu.Unlock()
		return Decision{}, fmt.Errorf("consent prompt id %q is empty or already waiting", p.ID)
	}
	q.seq++
	w.seq = q.seq
	q.waiting[p.ID] = w
	q.mu.Unlock()
	defer func() {
		q.mu.Lock()
		if q.waiting[p.ID] == w {
			delete(q.waiting, p.ID)
		}
		q.mu.Unlock()
	}()
	select {
	case d := <-w.answer:
		return d, nil
	case <-ctx.Done():
		return Decision{}, ctx.Err()
	}
}

// Approve answers the waiting prompt id with yes; remember keeps the answer
// for every recording of its kind.
func (q *Pending) Approve(id string, remember bool) error {
	return q.answer(id, Decision{Approved: true, Remember: remember})
}

// Deny answers the waiting prompt id with no.
func (q *Pending) Deny(id string) error { return q.answer(id, Decision{}) }

func (q *Pending) answer(id string, d Decision) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	w, ok := q.waiting[id]
	if !ok {
		return fmt.Errorf("%w: %q (it may have been answered elsewhere or timed out)", ErrNoSuchPrompt, id)
	}
	// Answered once: a second answer finds nothing to answer.
	delete(q.waiting, id)
	w.answer <- d
	return nil
}

// List returns the waiting prompts, oldest first.
func (q *Pending) List() []api.ConsentPrompt {
	q.mu.Lock()
	ws := make([]*waiter, 0, len(q.waiting))
	for _, w := range q.waiting {
		ws = append(ws, w)
	}
	q.mu.Unlock()
	slices.SortFunc(ws, func(a, b *waiter) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]api.ConsentPrompt, len(ws))
	for i, w := range ws {
		out[i] = w.prompt
	}
	return out
}
