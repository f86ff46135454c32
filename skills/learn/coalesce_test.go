package learn

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestCoalesceRecordings(t *testing.T) {
	el := func(role, label string, sels ...events.Selector) *events.Enrichment {
		return &events.Enrichment{Kind: events.KindDOM, Role: role, Label: label, Selectors: sels}
	}
	val := func(raw string) *events.Value { return &events.Value{Raw: raw, Type: events.ValueText} }
	date := events.Selector{Strategy: events.StrategyID, Value: "#dob"}
	plan := events.Selector{Strategy: events.StrategyName, Value: "plan"}
	rec := events.Recording{Steps: []events.Step{
		{Seq: 1, Action: events.ActionFill, Enrichment: el("textbox", "Name")},
		{Seq: 2, Action: events.ActionFill, Enrichment: el("textbox", "Birth date", date), Value: val("0002-03-15")},
		{Seq: 3, Action: events.ActionFill, Enrichment: el("textbox", "Birth date", date), Value: val("0020-03-15")},
		{Seq: 4, Action: events.ActionFill, Enrichment: el("textbox", "Birth date", date), Value: val("2024-03-15")},
		{Seq: 5, Action: events.ActionClick, Enrichment: el("radio", "Pro", events.Selector{Strategy: events.StrategyID, Value: "#plan-pro"}, plan), Value: val("pro")},
		{Seq: 6, Action: events.ActionClick, Enrichment: el("button", "Save")},
		{Seq: 7, Action: events.ActionSubmit, Enrichment: el("form", ""), Effect: &events.Effect{Status: 201}},
		{Seq: 8, Action: events.ActionClick, Enrichment: el("link", "Next")},
		{Seq: 9, Action: events.ActionSubmit, Enrichment: el("form", "")},
		// An imported flow's Save opening a dialog, whose Confirm it
		// saw lead to a new page: two steps.
		{Seq: 10, Action: events.ActionClick, Enrichment: el("button", "Save")},
		{Seq: 11, Action: events.ActionSubmit, Enrichment: el("button", "Confirm")},
		// The same, the Confirm named by the flow without its role.
		{Seq: 12, Action: events.ActionClick, Enrichment: el("button", "Save")},
		{Seq: 13, Action: events.ActionSubmit, Enrichment: el("", "Confirm")},
	}}
	got := coalesceRecordings([]events.Recording{rec})[0].Steps
	var actions []string
	for _, s := range got {
		actions = append(actions, s.Action+":"+s.Enrichment.Label)
	}
	want := []string{"fill:Name", "fill:Birth date", "select:", "submit:Save", "click:Next", "submit:", "click:Save", "submit:Confirm", "click:Save", "submit:Confirm"}
	if len(actions) != len(want) {
		t.Fatalf("coalesced to %v; want %v", actions, want)
	}
	for i := range want {
		if actions[i] != want[i] {
			t.Fatalf("coalesced to %v; want %v", actions, want)
		}
	}
	if v := got[1].Value.Raw; v != "2024-03-15" {
		t.Errorf("the date's coalesced fill holds %q; want its last value", v)
	}
	if r := got[2]; r.Value.Raw != "Pro" || r.Enrichment.Role != "radiogroup" || len(r.Enrichment.Selectors) != 1 || r.Enrichment.Selectors[0] != plan {
		t.Errorf("the radio click coalesced to %+v %+v; want a choice of Pro in the group plan", r.Enrichment, r.Value)
	}
	if got[3].Effect == nil || got[3].Effect.Status != 201 {
		t.Errorf("the coalesced submit lost its effect: %+v", got[3].Effect)
	}
	if rec.Steps[1].Action != events.ActionFill || len(rec.Steps) != 13 || rec.Steps[4].Action != events.ActionClick {
		t.Error("the caller's recording was changed")
	}
}
