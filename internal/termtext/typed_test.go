package termtext

import (
	"io"
	"strings"
	"testing"
)

func TestTypedReadsALineEach(t *testing.T) {
	in := &Typed{In: strings.NewReader("tok-1\r\n42"), Prompt: io.Discard, Lines: " (the token, then the answer)"}
	for _, want := range []string{"tok-1", "42"} {
		if got, err := in.Read("value", "value"); got != want || err != nil {
			t.Errorf("Read() = %q, %v; want %q", got, err, want)
		}
	}
	if _, err := in.Read("answer", "answer"); err == nil || err.Error() != "no answer on standard input (the token, then the answer)" {
		t.Errorf("Read(past the input) = %v; want no answer, with the lines", err)
	}
	empty := &Typed{In: strings.NewReader("\nx\n"), Prompt: io.Discard}
	if _, err := empty.Read("token", "token"); err == nil || err.Error() != "the token is empty" {
		t.Errorf("Read(an empty line) = %v; want the token is empty", err)
	}
}
