package learn

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// TestCommitClickIsDestructive checks which last click files the row: a
// dialog's OK (a desktop form's, where no request shows the commit) and a
// Save, never a click that more input follows, an OK that acknowledges a
// submit, or a Cancel.
func TestCommitClickIsDestructive(t *testing.T) {
	fill := skills.Step{Action: events.ActionFill, Label: "Email", Value: "%email%", ReadBack: &skills.ReadBack{Kind: "value", Expect: "%email%"}}
	click := func(label string) skills.Step {
		return skills.Step{Action: events.ActionClick, Role: "button", Label: label}
	}
	cases := []struct {
		name  string
		steps []skills.Step
		want  []bool
	}{
		{"a desktop dialog's OK", []skills.Step{fill, click("OK")}, []bool{false, true}},
		{"ok in lower case", []skills.Step{fill, click("ok")}, []bool{false, true}},
		{"Save", []skills.Step{fill, click("Save customer")}, []bool{false, true}},
		{"OK that more input follows", []skills.Step{click("OK"), fill, click("Save")}, []bool{false, false, true}},
		{"OK acknowledging a submit", []skills.Step{fill, {Action: events.ActionSubmit}, click("OK")}, []bool{false, true, false}},
		{"Cancel", []skills.Step{fill, click("Cancel")}, []bool{false, false}},
		// An imported flow's Save submits the form the page then asks
		// about: the dialog's Confirm files the row.
		{"a submit its dialog's Confirm files", []skills.Step{fill, {Action: events.ActionSubmit, Label: "Save"}, {Action: events.ActionSubmit, Label: "Confirm"}}, []bool{false, false, true}},
		{"a submit its dialog's Confirm click files", []skills.Step{fill, {Action: events.ActionSubmit, Label: "Save"}, click("Confirm")}, []bool{false, false, true}},
		{"a word that only starts like ok", []skills.Step{fill, click("Okay-ish")}, []bool{false, false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := &builder{skill: &skills.Skill{Steps: tc.steps}}
			if err := g.markDestructive(); err != nil {
				t.Fatal(err)
			}
			for i, st := range g.skill.Steps {
				if st.Destructive != tc.want[i] {
					t.Errorf("step %d (%s %q) destructive = %v; want %v", i+1, st.Action, st.Label, st.Destructive, tc.want[i])
				}
			}
		})
	}
}

// TestSubmitThatSentStaysDestructive: a submit the demonstrations saw
// answered by the site filed the row, whatever asks after it.
func TestSubmitThatSentStaysDestructive(t *testing.T) {
	save := &events.Step{Action: events.ActionSubmit, Effect: &events.Effect{Status: 200}}
	g := &builder{skill: &skills.Skill{Steps: []skills.Step{
		{Action: events.ActionSubmit, Label: "Save"},
		{Action: events.ActionSubmit, Label: "Confirm"},
	}}, cols: []column{{save}, nil}}
	if err := g.markDestructive(); err != nil {
		t.Fatal(err)
	}
	if !g.skill.Steps[0].Destructive || !g.skill.Steps[1].Destructive {
		t.Errorf("destructive = %v, %v; want both: the Save was seen to send the row", g.skill.Steps[0].Destructive, g.skill.Steps[1].Destructive)
	}
}
