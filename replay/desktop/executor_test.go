package desktop

import (
	"context"
	"errors"
	"fmt"
	"image"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/keys"
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
func (p *personInput) Type(string) error      { return nil }
func (p *personInput) Press(keys.Chord) error { return nil }
func (p *personInput) Activate(string) error  { return nil }
func (p *personInput) Close() error           { return nil }
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

// formAX is an accessibility tree holding one form: its fields by label,
// and an OK button that files the form (clearing it) or is ignored.
type formAX struct {
	mu      sync.Mutex
	text    map[string]string
	ignores bool // OK does nothing: the app ignored the click
}

func (f *formAX) Find(_ context.Context, _, role, label string) ([]ax.Element, error) {
	return []ax.Element{{Role: role, Handle: label}}, nil
}

func (f *formAX) Fill(_ context.Context, el ax.Element, text string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.text[el.Handle.(string)] = text
	return nil
}

func (f *formAX) Text(_ context.Context, el ax.Element) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.text[el.Handle.(string)], nil
}

func (f *formAX) Press(context.Context, ax.Element) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.ignores {
		clear(f.text) // filed: the form is empty for the next one
	}
	return nil
}

// TestDestructiveStepIsProvedByItsEffect: a row's OK is committed only once
// the fields it filled let go of the row's values; an app that ignores the
// click leaves them, and the step fails after it ran (the engine reports
// the row unknown, not committed).
func TestDestructiveStepIsProvedByItsEffect(t *testing.T) {
	row := []replay.Step{
		{Index: 0, Step: skills.Step{Action: "fill", Role: "textbox", Label: "First Name", Value: "Ada"}},
		{Index: 1, Step: skills.Step{Action: "fill", Role: "textbox", Label: "Email", Value: "ada@example.org"}},
		{Index: 2, Step: skills.Step{Action: "click", Role: "button", Label: "OK", Destructive: true}},
	}
	for _, tc := range []struct {
		name      string
		ignores   bool
		committed bool
	}{
		{"the form is filed and cleared", false, true},
		{"the app ignores the click", true, false},
	} {
		ax := &formAX{text: map[string]string{}, ignores: tc.ignores}
		ex, err := New(Options{AX: ax, Input: &personInput{}, Quiet: time.Millisecond, FindTimeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var out replay.Outcome
		for _, st := range row {
			if out, err = ex.Do(context.Background(), st); err != nil {
				t.Fatal(err)
			}
		}
		if out.OK != tc.committed || out.Committed != tc.committed || out.Sent || out.Watched {
			t.Errorf("%s: OK's outcome %+v; want OK and committed %v, and nothing claimed about what was sent", tc.name, out, tc.committed)
		}
		if !tc.committed && !strings.Contains(out.Error, "nothing shows it was filed") {
			t.Errorf("%s: error %q; want it to say nothing shows the row was filed", tc.name, out.Error)
		}
	}
}

// refusingGuard allows what its filter allows, and keeps every intent.
type refusingGuard struct {
	mu      sync.Mutex
	seen    []Intent
	refuses func(Intent) bool
}

func (g *refusingGuard) Allow(_ context.Context, in Intent) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seen = append(g.seen, in)
	if g.refuses(in) {
		return errors.New("COMPUTER_TARGET_DENY_LISTED: its title is on the deny list")
	}
	return nil
}

// TestEveryInputAsksTheGuardFirst: each input is put to the guard before
// it is sent, with the typed text by length only; a refusal ends the
// replay with nothing sent.
func TestEveryInputAsksTheGuardFirst(t *testing.T) {
	form := &formAX{text: map[string]string{}}
	in := &personInput{}
	g := &refusingGuard{refuses: func(in Intent) bool { return in.Kind == "click" && in.Role == "button" }}
	ex, err := New(Options{AX: form, Input: in, Guard: g, Quiet: time.Millisecond, FindTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	fill := replay.Step{Index: 0, Step: skills.Step{Action: "fill", Role: "textbox", Label: "First Name", Value: "Ada", Floor: skills.Floor{ActiveWindow: "New customer"}}}
	if out, err := ex.Do(ctx, fill); err != nil || !out.OK {
		t.Fatalf("an allowed fill: %+v, %v", out, err)
	}
	chord := replay.Step{Index: 1, Step: skills.Step{Action: "run", Value: "ctrl+s"}}
	if out, err := ex.Do(ctx, chord); err != nil || !out.OK {
		t.Fatalf("an allowed chord: %+v, %v", out, err)
	}
	ok := replay.Step{Index: 2, Step: skills.Step{Action: "click", Role: "button", Label: "OK", Destructive: true, Floor: skills.Floor{ActiveWindow: "New customer"}}}
	_, err = ex.Do(ctx, ok)
	if err == nil || !strings.Contains(err.Error(), "COMPUTER_TARGET_DENY_LISTED") || !strings.Contains(err.Error(), "step 3") {
		t.Fatalf("a refused click: %v; want the replay ended with the grant's code", err)
	}
	if form.text["First Name"] != "Ada" {
		t.Fatal("the refused click was sent: the form was filed")
	}
	want := []Intent{
		{Kind: "fill", Window: "New customer", TextLen: 3, Role: "textbox"},
		{Kind: "press_keys", Keyboard: true},
		{Kind: "click", Window: "New customer", Role: "button"},
	}
	if !slices.Equal(g.seen, want) {
		t.Fatalf("the guard was asked %+v; want %+v", g.seen, want)
	}
}

// readerInput is an Input that reads every field as text, or fails with err.
type readerInput struct {
	personInput
	text string
	err  error
}

func (r *readerInput) FieldText(int, int) (string, error) { return r.text, r.err }

// TestFieldsReadDirectlyProveTheRowFiled: on the floor, a row's OK is
// committed only when every field it filled reads as something else or is
// gone; a field the app is too busy to answer for proves nothing, and a
// password field is never read.
func TestFieldsReadDirectlyProveTheRowFiled(t *testing.T) {
	busy := errors.New("WM_GETTEXT: This operation returned because the timeout period expired.")
	for _, tc := range []struct {
		name      string
		text      string
		err       error
		committed bool
		why       string
	}{
		{"cleared for the next one", "", nil, true, ""},
		{"still holds the row", "Ada", nil, false, "nothing shows it was filed"},
		{"the form closed", "", fmt.Errorf("%w (a Static window)", input.ErrNotAField), true, ""},
		{"the app is too busy to answer", "", busy, false, "nothing shows it was filed"},
		{"only a password was filled", "", input.ErrSecretField, false, "only password fields"},
	} {
		ex, err := New(Options{Input: &readerInput{text: tc.text, err: tc.err}, Quiet: time.Millisecond, FindTimeout: 300 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		ex.filled = []filledField{{pt: image.Pt(10, 10), value: "Ada"}}
		st := replay.Step{Index: 2, Step: skills.Step{Action: "click", Label: "OK", Destructive: true}}
		out := ex.fieldsTookEffect(context.Background(), st, replay.Outcome{OK: true, Via: replay.ViaFloor})
		if out.Committed != tc.committed || out.OK != tc.committed {
			t.Errorf("%s: outcome %+v; want OK and committed %v", tc.name, out, tc.committed)
		}
		if !strings.Contains(out.Error, tc.why) {
			t.Errorf("%s: error %q; want it to say %q", tc.name, out.Error, tc.why)
		}
	}
}
