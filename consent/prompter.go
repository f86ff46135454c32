package consent

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/reprise-dev/reprise/api"
)

// Prompter shows an api.ConsentPrompt to the person at this machine and
// returns their answer. Ask blocks until the person answers or ctx ends;
// when ctx ends it closes whatever it showed and returns ctx's error. A Prompter's Ask may be
// called from several goroutines, one prompt each.
type Prompter interface {
	// Name names the prompter in logs: "terminal", "zenity".
	Name() string
	// Available reports whether Ask can reach a person here, and if not, why.
	Available() (bool, string)
	// Ask shows p and waits for the answer.
	Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error)
}

// Terminal asks on a terminal: y or n, then whether to remember.
type Terminal struct {
	// In and Out are the terminal; the daemon passes its own TTY.
	In  io.Reader
	Out io.Writer
	// IsTerminal reports whether In is a terminal a person sits at; nil
	// means In must be an *os.File that is a terminal.
	IsTerminal func() bool

	turn      chan struct{} // one prompt on the terminal at a time
	startOnce sync.Once
	lines     chan string
}

var _ Prompter = (*Terminal)(nil)

// Name implements Prompter.
func (t *Terminal) Name() string { return "terminal" }

// Available implements Prompter.
func (t *Terminal) Available() (bool, string) {
	if t.In == nil || t.Out == nil {
		return false, "no terminal was given"
	}
	if t.IsTerminal != nil {
		if !t.IsTerminal() {
			return false, "standard input is not a terminal"
		}
		return true, ""
	}
	f, ok := t.In.(*os.File)
	if !ok || !isTerminal(f.Fd()) {
		return false, "standard input is not a terminal"
	}
	return true, ""
}

// read starts the one goroutine that reads In, so a prompt that ends
// early leaves no reader behind to eat the next prompt's answer.
func (t *Terminal) read() <-chan string {
	t.startOnce.Do(func() {
		t.turn = make(chan struct{}, 1)
		t.lines = make(chan string)
		go func() {
			defer close(t.lines)
			sc := bufio.NewScanner(t.In)
			for sc.Scan() {
				t.lines <- sc.Text()
			}
		}()
	})
	return t.lines
}

// Ask implements Prompter.
func (t *Terminal) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	lines := t.read()
	// Wait for a prompt already on the terminal, unless this one is
	// answered elsewhere first.
	select {
	case t.turn <- struct{}{}:
		defer func() { <-t.turn }()
	case <-ctx.Done():
		return Decision{}, ctx.Err()
	}
	drain(lines)
	fmt.Fprintf(t.Out, "\n%s\n\n%s\n\n", p.Title, wrap(p.Body, wrapWidth))
	approved, err := t.yesNo(ctx, lines, fmt.Sprintf("y: %s / n: %s > ", p.Approve, p.Deny))
	if err != nil {
		return Decision{}, err
	}
	if p.Once {
		return Decision{Approved: approved}, nil
	}
	remember, err := t.yesNo(ctx, lines, RememberQuestion+" y/n > ")
	if err != nil {
		return Decision{}, err
	}
	return Decision{Approved: approved, Remember: remember}, nil
}

// drain drops a line typed before the prompt was shown: it answers nothing.
func drain(lines <-chan string) {
	for {
		select {
		case _, ok := <-lines:
			if !ok {
				return
			}
		default:
			return
		}
	}
}

// errNoTerminalAnswer means the terminal closed before the person answered.
var errNoTerminalAnswer = errors.New("terminal closed before an answer")

func (t *Terminal) yesNo(ctx context.Context, lines <-chan string, question string) (bool, error) {
	for {
		fmt.Fprint(t.Out, question)
		select {
		case <-ctx.Done():
			fmt.Fprintln(t.Out, "\n(answered elsewhere or timed out)")
			return false, ctx.Err()
		case line, ok := <-lines:
			if !ok {
				return false, errNoTerminalAnswer
			}
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				return true, nil
			case "n", "no":
				return false, nil
			}
			fmt.Fprintln(t.Out, "Please answer y or n.")
		}
	}
}
