package termtext

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Typed reads what the person types: without echo on a terminal, else a
// line at a time from In, through one buffer so that no line is lost
// between two reads.
type Typed struct {
	In io.Reader
	// Prompt is where a terminal's prompt goes (standard error).
	Prompt io.Writer
	// Lines says which line holds what, for input that runs out.
	Lines string
	r     *bufio.Reader
}

// Read reads one value, asking with prompt on a terminal; name says what
// it is in errors. An empty value is refused.
func (in *Typed) Read(prompt, name string) (string, error) {
	if f, ok := in.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(in.Prompt, "%s: ", prompt)
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(in.Prompt)
		if err != nil {
			return "", fmt.Errorf("read the %s: %w", name, err)
		}
		if len(b) == 0 {
			return "", fmt.Errorf("the %s is empty", name)
		}
		return string(b), nil
	}
	if in.r == nil {
		in.r = bufio.NewReader(in.In)
	}
	line, err := in.r.ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("no %s on standard input%s", name, in.Lines)
	}
	v := strings.TrimRight(line, "\r\n")
	if v == "" {
		return "", fmt.Errorf("the %s is empty", name)
	}
	return v, nil
}
