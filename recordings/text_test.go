package recordings

import (
	"bytes"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
)

func TestWriteSteps(t *testing.T) {
	rec := &events.Recording{RecordingID: "rec_1", InterpretationRoute: "local_vlm", Steps: []events.Step{
		{Seq: 1, Action: "click", ActiveApp: "Chromium", Enrichment: &events.Enrichment{Kind: "dom", Role: "button"}},
		{Seq: 2, Action: "fill", Enrichment: &events.Enrichment{Kind: "ax", Label: "Name"}, Value: &events.Value{Raw: "Ada"}},
		{Seq: 3, Action: "fill", Value: &events.Value{Raw: "hunter2", Type: events.ValueSecret}},
		{Seq: 4, Action: "fill", Redacted: true, Value: &events.Value{Raw: "kept?"}, Inferred: true},
		{Seq: 5, Action: "click", Enrichment: &events.Enrichment{Label: "a\x1b[2Jb"}},
	}}
	var b bytes.Buffer
	if err := WriteSteps(&b, rec); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("WriteSteps wrote %d lines; want a title, a header and 5 steps:\n%s", len(lines), b.String())
	}
	for i, want := range []string{
		"rec_1  ",
		"SEQ  ACTION",
		"1    click",
		"Name       Ada",
		"(redacted)",
		"fill (inferred from state)",
	} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("WriteSteps line %d = %q; want it to hold %q", i, lines[i], want)
		}
	}
	if !strings.Contains(lines[2], "button") || !strings.Contains(lines[2], "Chromium") {
		t.Errorf("WriteSteps line 2 = %q; want the role as target when there is no label, and the app", lines[2])
	}
	if strings.Contains(b.String(), "hunter2") || strings.Contains(b.String(), "kept?") {
		t.Errorf("WriteSteps printed a secret or redacted value:\n%s", b.String())
	}
	if strings.Contains(b.String(), "\x1b") {
		t.Errorf("WriteSteps printed an escape:\n%q", b.String())
	}
}

func TestWriteList(t *testing.T) {
	var b bytes.Buffer
	err := WriteList(&b, []api.RecordingListing{
		{RecordingID: "rec_1", Mode: "demonstration", InterpretationRoute: "local_vlm", State: "stopped", StepsStored: 4},
		{RecordingID: "rec_2", State: "stopped", StepsStored: 2, LostSteps: 3},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"RECORDING  STARTED", "rec_1", "stopped                       4", "stopped (incomplete: 3 lost)  2"} {
		if !strings.Contains(got, want) {
			t.Errorf("WriteList = %q; want it to hold %q", got, want)
		}
	}
}
