package skills

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestFoldClickSubmits(t *testing.T) {
	el := func(role, label string) *events.Enrichment {
		return &events.Enrichment{Kind: events.KindDOM, Role: role, Label: label}
	}
	rec := events.Recording{Steps: []events.Step{
		{Seq: 1, Action: events.ActionFill, Enrichment: el("textbox", "Name")},
		{Seq: 2, Action: events.ActionClick, Enrichment: el("button", "Save")},
		{Seq: 3, Action: events.ActionSubmit, Enrichment: el("form", "")},
		{Seq: 4, Action: events.ActionClick, Enrichment: el("link", "Next")},
		{Seq: 5, Action: events.ActionSubmit, Enrichment: el("form", "")},
	}}
	got := foldClickSubmits([]events.Recording{rec})[0].Steps
	var actions []string
	for _, s := range got {
		actions = append(actions, s.Action+":"+s.Enrichment.Label)
	}
	want := []string{"fill:Name", "submit:Save", "click:Next", "submit:"}
	if len(actions) != len(want) {
		t.Fatalf("folded to %v; want %v", actions, want)
	}
	for i := range want {
		if actions[i] != want[i] {
			t.Fatalf("folded to %v; want %v", actions, want)
		}
	}
	if rec.Steps[1].Action != events.ActionClick || len(rec.Steps) != 5 {
		t.Error("the caller's recording was changed")
	}
}
