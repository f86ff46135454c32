package desktop

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// personInput is an Input whose idle time says a person is typing until
// busyUntil, and which records what it was asked to do.
type personInput struct {
	mu        sync.Mutex
	busyUntil time.Time
	clicks    []time.Time
}

func (p *personInput) Click(int, int, int) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clicks = append(p.clicks, time.Now())
	return nil
}
func (p *personInput) Type(string) error     { return nil }
func (p *personInput) Press(Chord) error     { return nil }
func (p *personInput) Activate(string) error { return nil }
func (p *personInput) Close() error          { return nil }
func (p *personInput) Idle() (time.Duration, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Now().Before(p.busyUntil) {
		return 10 * time.Millisecond, nil // someone just touched the machine
	}
	return time.Since(p.busyUntil), nil
}

// TestWaitsWhileAPersonUsesTheMachine: a step is held while the idle time
// shows input that is not the executor's own, and runs once it is quiet.
func TestWaitsWhileAPersonUsesTheMachine(t *testing.T) {
	in := &personInput{busyUntil: time.Now().Add(600 * time.Millisecond)}
	ex, err := New(Options{Input: in, Quiet: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	out, err := ex.Do(context.Background(), replay.Step{Step: skills.Step{Action: "click", Floor: skills.Floor{Cursor: []int{10, 10}}}})
	if err != nil || !out.OK {
		t.Fatalf("click = %+v, %v", out, err)
	}
	if len(in.clicks) != 1 || in.clicks[0].Sub(start) < 600*time.Millisecond {
		t.Fatalf("clicked %v after the start; want only once the person had left the machine alone", in.clicks[0].Sub(start))
	}
	// Its own click does not count as a person: the next step runs at once.
	start = time.Now()
	if _, err := ex.Do(context.Background(), replay.Step{Step: skills.Step{Action: "click", Floor: skills.Floor{Cursor: []int{10, 10}}}}); err != nil {
		t.Fatal(err)
	}
	if d := in.clicks[1].Sub(start); d > 150*time.Millisecond {
		t.Errorf("the second step waited %s for the executor's own input", d)
	}
	// A person typing on after the executor's last input holds the next
	// step until the context ends.
	time.Sleep(200 * time.Millisecond)
	in.mu.Lock()
	in.busyUntil = time.Now().Add(time.Hour)
	in.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := ex.Do(ctx, replay.Step{Step: skills.Step{Action: "click", Floor: skills.Floor{Cursor: []int{1, 1}}}}); err == nil {
		t.Fatal("a step ran while the person kept using the machine")
	}
}
