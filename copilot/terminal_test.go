package copilot

import (
	"bufio"
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/ops"
)

func terminal(in string) (Terminal, *strings.Builder) {
	out := new(strings.Builder)
	return Terminal{In: bufio.NewReader(strings.NewReader(in)), Out: out}, out
}

func TestTerminalVaries(t *testing.T) {
	tests := []struct {
		in   string
		want bool
		err  error
	}{
		{"y\n", true, nil},
		{"maybe\nNo\n", false, nil},
		{"YES", true, nil},
		{"maybe\n", false, ErrNoAnswer},
	}
	for _, tt := range tests {
		term, out := terminal(tt.in)
		got, err := term.Varies("Email")
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Varies with %q = %v, %v; want %v, %v", tt.in, got, err, tt.want, tt.err)
		}
		if !strings.HasPrefix(out.String(), "Does Email change on every run? [y/n] ") {
			t.Errorf("Varies with %q asked %q", tt.in, out.String())
		}
	}
}

func TestTerminalColumn(t *testing.T) {
	header := []string{"name", "email"}
	tests := []struct {
		in     string
		header []string
		want   string
		err    error
		said   string
	}{
		{"\n", header, "email", nil, "Which column holds Email? (name, email) [email] "},
		{"mail\nname\n", header, "name", nil, `the CSV has no column "mail"`},
		{"anything\n", nil, "anything", nil, "Which column holds Email? [email] "},
		{"", header, "", ErrNoAnswer, ""},
	}
	for _, tt := range tests {
		term, out := terminal(tt.in)
		got, err := term.Column("Email", "email", tt.header)
		if got != tt.want || !errors.Is(err, tt.err) {
			t.Errorf("Column with %q = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
		if !strings.Contains(out.String(), tt.said) {
			t.Errorf("Column with %q said %q; want it to hold %q", tt.in, out.String(), tt.said)
		}
	}
}

func TestTerminalAnswer(t *testing.T) {
	q := ops.Question{Parameter: "plan", Text: "Answer plan/gold=<option>"}
	term, out := terminal("\n  Enterprise \n")
	if got, err := term.Answer(q); got != "Enterprise" || err != nil {
		t.Errorf("Answer = %q, %v; want the first line that is not empty, trimmed", got, err)
	}
	if want := "Answer plan/gold=<option>\n[plan] "; !strings.HasPrefix(out.String(), want) {
		t.Errorf("Answer asked %q; want %q first", out.String(), want)
	}
	term, _ = terminal("\n")
	if _, err := term.Answer(q); !errors.Is(err, ErrNoAnswer) {
		t.Errorf("Answer of input that ends = %v; want ErrNoAnswer", err)
	}
}
