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
)

// syncBuffer is a bytes.Buffer safe to read while the prompter writes.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestTerminal(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  Decision
		err   error
	}{
		{"yes, remember", "y\nyes\n", Decision{Approved: true, Remember: true}, nil},
		{"no, once", "n\nn\n", Decision{}, nil},
		{"no, remember", "NO\nY\n", Decision{Remember: true}, nil},
		{"re-asks until it understands", "sure\n\ny\nmaybe\nn\n", Decision{Approved: true}, nil},
		{"closed before an answer", "what\n", Decision{}, errNoTerminalAnswer},
		{"closed before remember", "y\n", Decision{}, errNoTerminalAnswer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out syncBuffer
			term := &Terminal{In: strings.NewReader(tt.input), Out: &out, IsTerminal: func() bool { return true }}
			p := NewPrompt(cloudReq, "")
			d, err := term.Ask(context.Background(), p)
			if d != tt.want || !errors.Is(err, tt.err) {
				t.Fatalf("Ask with input %q = %+v, %v; want %+v, %v", tt.input, d, err, tt.want, tt.err)
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
	var out syncBuffer
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
