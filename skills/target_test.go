package skills

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
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
