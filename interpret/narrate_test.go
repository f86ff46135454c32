package interpret

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestNarrate(t *testing.T) {
	el := func(role, label string) *events.Enrichment {
		return &events.Enrichment{Kind: events.KindDOM, Role: role, Label: label, URL: "https://crm.example.com/new"}
	}
	val := func(raw, typ string) *events.Value { return &events.Value{Raw: raw, Type: typ} }
	for _, tc := range []struct {
		step events.Step
		want string
	}{
		{events.Step{Action: "navigate", Value: val("https://crm.example.com/new", "text")}, "Opened https://crm.example.com/new"},
		{events.Step{Action: "fill", Enrichment: el("textbox", "First Name"), Value: val("John", "text")}, "Filled First Name with John"},
		{events.Step{Action: "fill", Enrichment: el("textbox", "Password"), Value: val("", "secret"), Redacted: true}, "Filled Password (value hidden)"},
		{events.Step{Action: "fill", Enrichment: el("textbox", "Card"), Value: val("4111111111111111", "text"), Redacted: true}, "Filled Card (value hidden)"},
		{events.Step{Action: "select", Enrichment: el("combobox", "Country"), Value: val("France", "enum")}, "Chose France in Country"},
		{events.Step{Action: "click", Enrichment: el("button", "Save")}, "Clicked Save"},
		{events.Step{Action: "click", Enrichment: el("checkbox", "Newsletter"), Value: val("checked", "enum")}, "Checked Newsletter"},
		{events.Step{Action: "submit", Enrichment: el("form", "")}, "Submitted the form"},
		{events.Step{Action: "click", Cursor: []int{10, 20}, ActiveApp: "Ledger"}, "Clicked at [10 20] in Ledger"},
		{events.Step{Action: "upload", Enrichment: el("", "Contract"), Value: val("c.pdf (19 bytes)", "file")}, "Uploaded c.pdf (19 bytes) to Contract"},
	} {
		if got := Narrate(tc.step); got != tc.want {
			t.Errorf("Narrate(%s) = %q; want %q", tc.step.Action, got, tc.want)
		}
	}
}
