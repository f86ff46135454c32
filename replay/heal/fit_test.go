package heal

import (
	"context"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

const fitYAML = `version: 1
name: fit
ai: on_miss
parameters:
  - {name: email, column: Email, type: email}
  - {name: plan, column: Plan, type: text}
dedupe_key: [email]
steps:
  - action: navigate
    value: https://site.test/new
  - action: fill
    selectors: [{strategy: label, value: Email}]
    label: Email
    value: "%email%"
  - action: click
    selectors: [{strategy: name, value: Next}]
    label: Next
  - action: select
    selectors: [{strategy: label, value: Plan}]
    label: Plan
    value: "%plan%"
  - action: click
    selectors: [{strategy: label, value: Terms}]
    role: checkbox
    label: Terms
    value: "true"
  - action: click
    target: {role: button, name: Submit}
    destructive: true
    assert: {kind: url_contains, value: /saved}
`

// fitPage is a sign-in and plan form whose executor tells which fields
// are secure (Facts), except for the last element.
func fitPage() (*page, func(context.Context, replay.Step) (Screen, error)) {
	p := &page{tree: selector.Tree{
		el("group", "Account", -1),               // e0
		el("text_field", "Login code", 0),        // e1: secure, the executor says
		el("text_field", "Password", 0),          // e2: secure by its name
		el("text_field", "E-mail address", 0),    // e3
		el("button", "Delete everything", -1),    // e4
		el("button", "Continue", -1),             // e5
		el("combo_box", "Plan", -1),              // e6
		el("list_item", "Gold", 6),               // e7
		el("list_item", "Silver", 6),             // e8
		el("combo_box", "Tier", -1),              // e9
		el("list_item", "Bronze", 9),             // e10
		el("checkbox", "I accept the terms", -1), // e11
		el("link", "Help", -1),                   // e12
		el("button", "Send", -1),                 // e13
		el("text_field", "Notes", -1),            // e14: the executor tells nothing of it
	}}
	facts := make([]Fact, len(p.tree)-1)
	facts[1].Secure = true
	return p, func(ctx context.Context, st replay.Step) (Screen, error) {
		scr, err := p.look(ctx, st)
		scr.Facts = facts
		return scr, err
	}
}

var fitValues = map[string]string{"email": "ada@example.org", "plan": "Gold"}

func fitStepOf(t *testing.T, sk *skills.Skill, i int) replay.Step {
	t.Helper()
	st := replay.Step{Row: 1, Index: i, Step: sk.Steps[i], Template: sk.Steps[i], Values: fitValues}
	var err error
	if st.Value, err = skills.Expand(st.Value, st.Values); err != nil {
		t.Fatal(err)
	}
	return st
}

func stepOn(ref string) string  { return `{"action":"step","element":"` + ref + `"}` }
func clickOn(ref string) string { return `{"action":"click","element":"` + ref + `"}` }

// TestAnswerMustFitTheStep: an answer naming an element of the wrong kind
// for the step is refused with a correction saying why, as a malformed
// answer is, and the next answer that fits is taken; two refused fail.
func TestAnswerMustFitTheStep(t *testing.T) {
	for _, tc := range []struct {
		name    string
		step    int
		answers []string
		refusal string // in the correction
		ran     string // "" when the healing fails
	}{
		{"fill into a field the executor says is secure", 1, []string{stepOn("e1"), stepOn("e3")}, "is a password field", "fill E-mail address"},
		{"fill into a field named Password", 1, []string{stepOn("e2"), stepOn("e3")}, "is a password field", "fill E-mail address"},
		{"fill into a field the executor tells nothing of", 1, []string{stepOn("e14"), stepOn("e3")}, "cannot tell whether it is a password field", "fill E-mail address"},
		{"fill into a button", 1, []string{stepOn("e5"), stepOn("e3")}, "types text", "fill E-mail address"},
		{"click on Delete everything, the step files nothing", 2, []string{stepOn("e4"), stepOn("e5")}, `reads as "delete"`, "click Continue"},
		{"click on Send, the step files nothing", 2, []string{stepOn("e13"), stepOn("e5")}, `reads as "send"`, "click Continue"},
		{"click on a text field", 2, []string{stepOn("e3"), stepOn("e5")}, "not clicked", "click Continue"},
		{"select on a text field", 3, []string{stepOn("e3"), stepOn("e6")}, "chooses an option", "select Plan"},
		{"select on a choice without the value", 3, []string{stepOn("e9"), stepOn("e6")}, "none of its 1 options", "select Plan"},
		{"checkbox on a button", 4, []string{stepOn("e5"), stepOn("e11")}, "sets a checkbox", "click I accept the terms"},
		{"the submit on a link", 5, []string{stepOn("e12"), stepOn("e13")}, "files the form", "click Send"},
		{"the submit on Delete everything", 5, []string{stepOn("e4"), stepOn("e13")}, "deletes nothing", "click Send"},
		{"a click before the step on Delete everything", 1, []string{clickOn("e4"), stepOn("e3")}, "a click before step 2 never", "fill E-mail address"},
		{"a click before the step on a password field", 1, []string{clickOn("e2"), stepOn("e3")}, "is a password field", "fill E-mail address"},
		{"refused twice", 1, []string{stepOn("e1"), stepOn("e2")}, "is a password field", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sk := mustSkill(t, fitYAML)
			p, look := fitPage()
			m := &llm{answers: tc.answers}
			e := New(p, Options{Skill: sk, Model: m, Look: look, WatchesClicks: true})
			out, err := e.Do(context.Background(), fitStepOf(t, sk, tc.step))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(p.ran, ", "); got != tc.ran {
				t.Errorf("ran %q; want %q", got, tc.ran)
			}
			if tc.ran == "" {
				if out.OK || !strings.Contains(out.Error, "refused twice") {
					t.Errorf("Do = %+v; want the healing failed, refused twice", out)
				}
			} else if !out.OK || out.Via != replay.ViaModel || out.ModelCalls != 2 {
				t.Errorf("Do = %+v; want OK by the model's second answer (2 calls)", out)
			}
			if len(m.asked) < 2 {
				t.Fatalf("the model was asked %d times; want a correction", len(m.asked))
			}
			c := m.asked[1].Messages
			if len(c) != 3 || !strings.Contains(c[2].Parts[0].Text, "refused") || !strings.Contains(c[2].Parts[0].Text, tc.refusal) {
				t.Errorf("the correction was %+v; want it to say %q", c, tc.refusal)
			}
			for _, v := range fitValues {
				if strings.Contains(c[2].Parts[0].Text+out.Error, v) {
					t.Errorf("the correction or the error holds the row's value %q", v)
				}
			}
		})
	}
}

// TestCachedElementMustFit: an entry (signed, as this host made it) whose
// element no longer fits the step is not used: a note says so and the
// model is asked.
func TestCachedElementMustFit(t *testing.T) {
	sk, c := mustSkill(t, fitYAML), tempCache(t, "fit")
	bad := Change{Step: 1, Target: selector.Selector{Role: "text_field", Name: "Password"}}
	if err := c.Store(bad, sk.Steps[1], nil, fitValues); err != nil {
		t.Fatal(err)
	}
	p, look := fitPage()
	m := &llm{answers: []string{stepOn("e3")}}
	out, err := New(p, Options{Skill: sk, Model: m, Look: look, Cache: c}).Do(context.Background(), fitStepOf(t, sk, 1))
	if err != nil || !out.OK || out.Via != replay.ViaModel || out.ModelCalls != 1 {
		t.Fatalf("Do = %+v, %v; want the model asked, not the entry used", out, err)
	}
	if got := strings.Join(p.ran, ", "); got != "fill E-mail address" {
		t.Errorf("ran %s", got)
	}
	if n := strings.Join(out.Notes, "\n"); !strings.Contains(n, "step 2 (fill): the replay cache's element does not fit the step") || !strings.Contains(n, "password field") {
		t.Errorf("notes %q; want the entry said ignored", out.Notes)
	}
}

// TestPinMustFit: a pin whose element does not fit the step is not run;
// it misses, with a note, and the model takes over under on_miss.
func TestPinMustFit(t *testing.T) {
	sk := pinnedSkill(t, `        - click: {role: button, name: Delete all customers}
        - type: {into: {role: text_field, name: E-mail address}, text: "%email%"}
`, "on_miss")
	p := form()
	e := New(p, Options{Skill: sk, Model: &llm{answers: []string{stepOn("e5")}}, Look: p.look, WatchesClicks: true})
	out, err := e.Do(context.Background(), step(sk, 1, 1))
	if err != nil || !out.OK || out.Via != replay.ViaModel {
		t.Fatalf("Do = %+v, %v; want the model to take over", out, err)
	}
	if got := strings.Join(p.ran, ", "); got != "fill E-mail address" {
		t.Errorf("ran %s; want the delete never clicked", got)
	}
	if n := strings.Join(out.Notes, "\n"); !strings.Contains(n, "pinned step 1 of 2 (click)") || !strings.Contains(n, `reads as "delete"`) {
		t.Errorf("notes %q; want the pin said not run", out.Notes)
	}
}

func TestTokens(t *testing.T) {
	for name, want := range map[string]string{
		"Check out now":  "checkout now",
		"Delete-all (3)": "delete all 3",
		"Mot de passe":   "mot de passe",
		"  E-MAIL  ":     "e mail",
	} {
		if got := strings.Join(tokens(name), " "); got != want {
			t.Errorf("tokens(%q) = %q; want %q", name, got, want)
		}
	}
}

// TestFitRule is the rule element by element (see fit.go).
func TestFitRule(t *testing.T) {
	tree := selector.Tree{
		el("button", "Save draft", -1),      // 0
		el("button", "Delete customer", -1), // 1
		el("link", "Pay now", -1),           // 2
		el("button", "Next", -1),            // 3
		el("combo_box", "Country", -1),      // 4: options not listed
		el("group", "Size", -1),             // 5
		el("radio", "Large", 5),             // 6
		el("text_field", "PIN", -1),         // 7
		el("text_field", "Search", -1),      // 8
		el("list", "Results", -1),           // 9: no options
	}
	facts := make([]Fact, len(tree))
	facts[3].Submit = true
	step := func(action, label, value string, destructive bool) replay.Step {
		s := skills.Step{Action: action, Label: label, Value: value, Destructive: destructive}
		return replay.Step{Index: 0, Step: s, Template: s}
	}
	for _, tc := range []struct {
		name  string
		st    replay.Step
		i     int
		facts []Fact
		want  string // "" when it fits
	}{
		{"a step recorded on the name it reads as", step("click", "Save draft", "", false), 0, nil, ""},
		{"another name that reads as filing", step("click", "Keep as draft", "", false), 0, nil, `reads as "save"`},
		{"a submit button, the step files nothing", step("click", "Next", "", false), 3, facts, ""},
		{"a submit button, another name", step("click", "Continue", "", false), 3, facts, "a submit button"},
		{"a delete for a step that deletes", step("click", "Delete", "", true), 1, nil, ""},
		{"a link that reads as filing, for a submit", step("click", "Pay", "", true), 2, nil, ""},
		{"a submit button for a submit", step("submit", "Send", "", false), 3, facts, ""},
		{"a choice that lists no options", step("select", "Country", "France", false), 4, nil, ""},
		{"a group of radios with the value", step("select", "Size", "large", false), 5, nil, ""},
		{"a group of radios without it", step("select", "Size", "Small", false), 5, nil, "none of its 1 options"},
		{"a list with no options", step("select", "Results", "x", false), 9, nil, "lists no options"},
		{"a field named PIN", step("fill", "Code", "1234", false), 7, nil, "password field"},
		{"a secret step on a text field", replay.Step{Step: skills.Step{Action: "fill", Secret: true}}, 8, nil, "is not a password field"},
		{"a secret step on a PIN field", replay.Step{Step: skills.Step{Action: "fill", Secret: true}}, 7, nil, ""},
	} {
		err := fitStep(tc.st, nil, Screen{Tree: tree, Facts: tc.facts}, tc.i)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: fitStep = %v; want %q", tc.name, err, tc.want)
		}
	}
}
