package consent

import (
	"io"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
)

func TestAskingAnswer(t *testing.T) {
	p := api.ConsentPrompt{Title: "Record?", Body: "the floor", Approve: "Start recording", Deny: "Don't"}
	tests := []struct {
		in                          string
		approve, remember, answered bool
	}{
		{"y\nn\n", true, false, true},
		{"yes\nY\n", true, true, true},
		{"\n", false, false, true}, // the default is no, and input that ends says no
		{"", false, false, true},
	}
	for _, tt := range tests {
		var out strings.Builder
		approve, remember, answered := NewAsking(strings.NewReader(tt.in), &out).Answer(p, make(chan struct{}))
		if approve != tt.approve || remember != tt.remember || answered != tt.answered {
			t.Errorf("Answer with %q = %v, %v, %v; want %v, %v, %v", tt.in, approve, remember, answered, tt.approve, tt.remember, tt.answered)
		}
		if !strings.Contains(out.String(), "Record?\n\nthe floor\n\nStart recording? [y/N] ") {
			t.Errorf("Answer with %q showed %q; want the prompt and its question", tt.in, out.String())
		}
	}
	// Answered elsewhere: the terminal says so and takes no answer.
	pr, pw := io.Pipe()
	defer pw.Close()
	decided := make(chan struct{})
	close(decided)
	var out strings.Builder
	if _, _, answered := NewAsking(pr, &out).Answer(p, decided); answered {
		t.Errorf("Answer once decided elsewhere: answered; want not")
	}
	if !strings.HasSuffix(out.String(), "(answered elsewhere)\n") {
		t.Errorf("Answer once decided elsewhere showed %q", out.String())
	}
}
