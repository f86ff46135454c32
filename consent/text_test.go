package consent

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
)

func TestWriteChoices(t *testing.T) {
	decided := time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local)
	tests := []struct {
		cs   []api.ConsentChoice
		want []string
	}{
		{nil, []string{"No remembered answers: every recording asks.\n"}},
		{[]api.ConsentChoice{{Kind: "demonstration/floor", Approved: true, DecidedAt: decided}, {Kind: "copilot/browser", DecidedAt: decided}},
			[]string{"KIND                 ANSWER   DECIDED\n", "demonstration/floor  approve  2026-03-04 05:06:07\n", "copilot/browser      deny     2026-03-04 05:06:07\n"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteChoices(&b, tt.cs); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), strings.Join(tt.want, ""); got != want {
			t.Errorf("WriteChoices(%v) = %q; want %q", tt.cs, got, want)
		}
	}
}

func TestWritePrompts(t *testing.T) {
	commands := func(id string) (string, string) { return "yes " + id, "no " + id }
	var b bytes.Buffer
	if err := WritePrompts(&b, nil, commands); err != nil || b.String() != "No consent prompt is waiting.\n" {
		t.Errorf("WritePrompts(none) = %q, %v", b.String(), err)
	}
	b.Reset()
	p := api.ConsentPrompt{ID: "c1", Title: "Record?", Requester: "cli", Body: "the floor", Approve: "Start recording", Deny: "Don't"}
	if err := WritePrompts(&b, []api.ConsentPrompt{p}, commands); err != nil {
		t.Fatal(err)
	}
	want := "── Record?  (id c1, asked by cli)\n\nthe floor\n\n   Start recording:  yes c1\n   Don't:  no c1\n\n"
	if b.String() != want {
		t.Errorf("WritePrompts = %q; want %q", b.String(), want)
	}
}
