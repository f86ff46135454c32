package learn

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

func TestTargetOf(t *testing.T) {
	step := func(role, label, id string, c *events.Container) *events.Step {
		e := &events.Enrichment{Kind: "dom", Role: role, Label: label, Container: c}
		if id != "" {
			e.Selectors = []events.Selector{{Strategy: events.StrategyID, Value: "#" + id}}
		}
		return &events.Step{Action: "fill", Enrichment: e}
	}
	shipping := &events.Container{Role: "group", Name: "Shipping"}
	for _, c := range []struct {
		name string
		col  column
		want string // the target as String writes it; "" for none
	}{
		{"role and name", column{step("textbox", "First Name", "", nil), step("textbox", "First Name", "", nil)}, `{role: "text_field", name: "First Name"}`},
		{"an id the same in both", column{step("button", "Save", "save", nil), step("button", "Save", "save", nil)}, `{role: "button", name: "Save", id: "save"}`},
		{"an id that changes is no id", column{step("button", "Save", "save-1", nil), step("button", "Save", "save-2", nil)}, `{role: "button", name: "Save"}`},
		{"a repeated name gets its container", column{step("textbox", "Name", "", shipping), step("textbox", "Name", "", shipping)}, `{role: "text_field", name: "Name", in: {role: "group", name: "Shipping"}}`},
		{"no name, no id: no target", column{step("textbox", "", "", nil)}, ""},
		{"a label that reads as a placeholder is no name", column{step("textbox", "%first%", "", nil)}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ""
			if tg := targetOf(c.col); tg != nil {
				if err := tg.Validate(); err != nil {
					t.Fatalf("targetOf = %s, which is not valid: %v", tg, err)
				}
				got = tg.String()
			}
			if got != c.want {
				t.Errorf("targetOf = %s; want %s", got, c.want)
			}
		})
	}
}

// TestInRepeated: two desktop steps whose targets are the same get the
// named container on their recorded paths; a target no other step shares,
// one with an id, and a path with no named container stay as they are.
func TestInRepeated(t *testing.T) {
	path := func(p string) *string { return &p }
	tgt := func(role, name string) *selector.Selector { return &selector.Selector{Role: role, Name: name} }
	steps := []skills.Step{
		{Action: "fill", Target: tgt("text_field", "Name"), AXPath: path(`frame[Orders]/filler/panel[Billing]/filler/text[Name]`)},
		{Action: "fill", Target: tgt("text_field", "Name:"), AXPath: path(`Window[Orders]/Group[Ship\/to]/Edit[Name:]`)},
		{Action: "fill", Target: tgt("text_field", "City"), AXPath: path(`frame[Orders]/panel[Billing]/text[City]`)},
		{Action: "click", Target: tgt("button", "Save"), AXPath: path(`frame[Orders]/filler/push button[Save]`)},
		{Action: "click", Target: tgt("button", "Save"), AXPath: path(`frame[Orders]/filler/push button[Save]#2`)},
		{Action: "fill", Target: &selector.Selector{Role: "text_field", Name: "City", ID: "city"}, AXPath: path(`frame[Orders]/panel[Billing]/text[City]`)},
	}
	inRepeated(steps)
	want := []string{
		`{role: "text_field", name: "Name", in: {role: "group", name: "Billing"}}`,
		`{role: "text_field", name: "Name:", in: {role: "group", name: "Ship/to"}}`,
		`{role: "text_field", name: "City"}`,
		`{role: "button", name: "Save"}`,
		`{role: "button", name: "Save"}`,
		`{role: "text_field", name: "City", id: "city"}`,
	}
	for i, st := range steps {
		if got := st.Target.String(); got != want[i] {
			t.Errorf("step %d: %s; want %s", i, got, want[i])
		}
	}
}
