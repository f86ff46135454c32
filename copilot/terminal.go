package copilot

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/ops"
)

// Terminal puts the questions to the person at a terminal: each is shown
// on Out and answered with a line of In, asked again until the line is an
// answer.
type Terminal struct {
	In  *bufio.Reader
	Out io.Writer
}

var _ Person = Terminal{}

// ErrNoAnswer is input ending before an answer.
var ErrNoAnswer = errors.New("no answer: the questions stay open")

// Answer shows a question that says its own answers, and reads one: for
// "Answer column:X=<field label> or column:X=ignore", the part after the "=".
func (t Terminal) Answer(q ops.Question) (string, error) {
	for {
		fmt.Fprintf(t.Out, "%s\n[%s] ", q.Text, q.Parameter)
		line, err := t.In.ReadString('\n')
		if a := strings.TrimSpace(line); a != "" {
			return a, nil
		}
		if err != nil {
			return "", ErrNoAnswer
		}
	}
}

// Varies implements Person: y or n.
func (t Terminal) Varies(label string) (bool, error) {
	for {
		fmt.Fprintf(t.Out, "Does %s change on every run? [y/n] ", label)
		line, err := t.In.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		}
		if err != nil {
			return false, ErrNoAnswer
		}
	}
}

// Column implements Person: an empty line takes def, and a column the
// header does not have is asked again.
func (t Terminal) Column(label, def string, header []string) (string, error) {
	for {
		if len(header) > 0 {
			fmt.Fprintf(t.Out, "Which column holds %s? (%s) [%s] ", label, strings.Join(header, ", "), def)
		} else {
			fmt.Fprintf(t.Out, "Which column holds %s? [%s] ", label, def)
		}
		line, err := t.In.ReadString('\n')
		a := strings.TrimSpace(line)
		if a == "" && err == nil {
			a = def
		}
		if a != "" && (len(header) == 0 || slices.Contains(header, a)) {
			return a, nil
		}
		if err != nil {
			return "", ErrNoAnswer
		}
		fmt.Fprintf(t.Out, "the CSV has no column %q\n", a)
	}
}
