package consent

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
)

// person types each answer only once its question is on the screen, as a
// person does, and closes the terminal when out of answers.
type person struct {
	syncbuf.Buffer
	w       *io.PipeWriter
	mu      sync.Mutex
	answers []string
}

func (p *person) Write(b []byte) (int, error) {
	n, err := p.Buffer.Write(b)
	if strings.HasSuffix(string(b), "> ") {
		p.mu.Lock()
		if len(p.answers) == 0 {
			p.w.Close()
		} else {
			a := p.answers[0]
			p.answers = p.answers[1:]
			go func() { _, _ = io.WriteString(p.w, a+"\n") }()
		}
		p.mu.Unlock()
	}
	return n, err
}

func TestTerminal(t *testing.T) {
	tests := []struct {
		name    string
		answers []string
		want    Decision
		err     error
	}{
		{"yes, remember", []string{"y", "yes"}, Decision{Approved: true, Remember: true}, nil},
		{"no, once", []string{"n", "n"}, Decision{}, nil},
		{"no, remember", []string{"NO", " Y "}, Decision{Remember: true}, nil},
		{"re-asks until it understands", []string{"sure", "", "y", "maybe", "n"}, Decision{Approved: true}, nil},
		{"closed before an answer", []string{"what"}, Decision{}, errNoTerminalAnswer},
		{"closed before remember", []string{"y"}, Decision{}, errNoTerminalAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w := io.Pipe()
			defer r.Close()
			out := &person{w: w, answers: tt.answers}
			term := &Terminal{In: r, Out: out, IsTerminal: func() bool { return true }}
			p := NewPrompt(cloudReq, "")
			d, err := term.Ask(context.Background(), p)
			if d != tt.want || !errors.Is(err, tt.err) {
				t.Fatalf("Ask answered %q = %+v, %v; want %+v, %v", tt.answers, d, err, tt.want, tt.err)
			}
			for _, s := range []string{p.Title, wrap(p.Body, wrapWidth), "y: Send and build / n: Keep it on my machine", RememberQuestion} {
				if tt.err == nil && !strings.Contains(out.String(), s) {
					t.Errorf("terminal output does not show %q:\n%s", s, out.String())
				}
			}
		})
	}
}

func TestTerminalCancelled(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	var out syncbuf.Buffer
	term := &Terminal{In: r, Out: &out, IsTerminal: func() bool { return true }}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := term.Ask(ctx, NewPrompt(extractReq, "")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Ask past its context = %v; want DeadlineExceeded", err)
	}
	// A line typed before the next prompt answers nothing; the next one does.
	go func() {
		_, _ = io.WriteString(w, "y\n")
		time.Sleep(300 * time.Millisecond)
		_, _ = io.WriteString(w, "n\nn\n")
	}()
	time.Sleep(100 * time.Millisecond)
	d, err := term.Ask(context.Background(), NewPrompt(extractReq, ""))
	if err != nil || d.Approved {
		t.Fatalf("Ask after a stray line = %+v, %v; want the answer typed after the prompt (no)", d, err)
	}
}

func TestTerminalAvailable(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	tests := []struct {
		name string
		term *Terminal
		want bool
	}{
		{"nothing", &Terminal{}, false},
		{"a pipe", &Terminal{In: pr, Out: io.Discard}, false},
		{"a reader", &Terminal{In: strings.NewReader(""), Out: io.Discard}, false},
		{"told it is a terminal", &Terminal{In: pr, Out: io.Discard, IsTerminal: func() bool { return true }}, true},
	}
	for _, tt := range tests {
		if ok, why := tt.term.Available(); ok != tt.want || (!ok && why == "") {
			t.Errorf("Terminal.Available(%s) = %v, %q; want %v with a reason when false", tt.name, ok, why, tt.want)
		}
	}
}

func TestTerminalOnePromptAtATime(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	term := &Terminal{In: r, Out: io.Discard, IsTerminal: func() bool { return true }}
	first, cancelFirst := context.WithCancel(context.Background())
	defer cancelFirst()
	go func() { _, _ = term.Ask(first, NewPrompt(extractReq, "")) }()
	time.Sleep(50 * time.Millisecond)
	// A second prompt waits its turn, and gives up when its context ends.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := term.Ask(ctx, NewPrompt(cloudReq, ""))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("second Ask = %v; want DeadlineExceeded", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a prompt waiting for the terminal ignored its context")
	}
}
