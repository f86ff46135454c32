package browser

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// choose is a select step on a group, read back, with its recorded options.
func choose(i int, role, label, value string, sels ...skills.Selector) replay.Step {
	st := withReadBack(step(i, "select", label, value, sels...), skills.ReadBackSelected, value)
	st.Role = role
	return st
}

func toggle(i int, role, label, value string, sels ...skills.Selector) replay.Step {
	st := withReadBack(step(i, "click", label, value, sels...), skills.ReadBackChecked, value)
	st.Role = role
	return st
}

// saveStep submits the widgets page; success is its own: the request
// answered, the form back to empty, the page where it was, the banner.
func saveStep(i int) replay.Step {
	st := step(i, "submit", "Save", "", sel("role+text", "button[name='Save']"))
	st.Destructive = true
	st.Assert = skills.Conditions{
		{Kind: skills.CondRequestOK, Timeout: "3s"}, {Kind: skills.CondFormReset, Timeout: "3s"},
		{Kind: skills.CondURLUnchanged, Timeout: "3s"}, {Kind: skills.CondText, Value: "Saved", Timeout: "3s"},
	}
	return st
}

// Every kind of choice set to an option by its label, by its value, or by
// a label written in another case or without its accents; every choice
// read back by the executor, and what the site stored checked.
func TestChooseEveryWidget(t *testing.T) {
	ex, s := browser(t)
	for _, tc := range []struct {
		name  string
		steps []replay.Step
		want  map[string]string
	}{
		{"labels", []replay.Step{
			choose(1, "radiogroup", "Plan", "Pro", sel("name", "plan"), sel("label", "Plan")),
			choose(2, "combobox", "Country", "France", sel("id", "#country")),
			choose(3, "radiogroup", "Tier", "Growth", sel("role+text", "radiogroup[name='Tier']")),
			choose(4, "listbox", "Office", "Denver", sel("label", "Office")),
			choose(5, "combobox", "Shipping service", "Express", sel("label", "Shipping service")),
			choose(6, "combobox", "State", "Nevada", sel("id", "#state")),
			choose(7, "menu", "Sort order", "Oldest first", sel("id", "#sort")),
		}, map[string]string{"plan": "pro", "country": "FR", "tier": "growth", "office": "Denver", "service": "exp", "state": "Nevada", "sort": "Oldest first"}},
		{"values", []replay.Step{
			// The styled radio's input is hidden: its label is clicked.
			choose(1, "radiogroup", "Plan", "team", sel("name", "plan")),
			choose(2, "combobox", "Country", "DE", sel("name", "country")),
			choose(3, "radiogroup", "Tier", "scale", sel("label", "Tier")),
			choose(4, "combobox", "Shipping service", "ovn", sel("role+text", "combobox[name='Shipping service']")),
		}, map[string]string{"plan": "team", "country": "DE", "tier": "scale", "service": "ovn"}},
		{"folded", []replay.Step{
			choose(1, "radiogroup", "Plan", "BASIC", sel("label", "Plan:")),
			choose(2, "combobox", "Country", "quebec", sel("label", "country")),
			choose(3, "listbox", "Office", "  lisbon ", sel("id", "#office")),
			choose(4, "combobox", "State", "new york", sel("label", "State")),
			choose(5, "menu", "Sort order", "most popular", sel("label", "Sort order")),
		}, map[string]string{"plan": "basic", "country": "QC", "office": "Lisbon", "state": "New York", "sort": "Most popular"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, ex, s.URL+"/widgets")
			steps := append([]replay.Step{step(0, "fill", "Full name", "Ada "+tc.name, sel("id", "#full_name"))}, tc.steps...)
			for _, st := range steps {
				out := mustOK(t, ex, st)
				if out.Via != replay.ViaDOM {
					t.Errorf("step %d found via %q; want dom", st.Index+1, out.Via)
				}
			}
			before := s.savedCount()
			out := mustOK(t, ex, saveStep(len(steps)))
			if !out.Committed || !out.Sent || out.Status != 201 {
				t.Errorf("save = %+v; want committed, sent, 201", out)
			}
			if s.savedCount() != before+1 {
				t.Fatalf("saved %d records; want 1", s.savedCount()-before)
			}
			got := s.lastSaved()
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("stored %s = %q; want %q", k, got[k], v)
				}
			}
		})
	}
}

// A radio group matched by its name is one group, not three radios.
func TestGroupModeCountsGroups(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/widgets")
	out := mustOK(t, ex, choose(1, "radiogroup", "Plan", "Pro", sel("name", "plan")))
	if len(out.Tried) != 1 || out.Tried[0].Matches != 1 {
		t.Errorf("name=plan matched %+v; want one group", out.Tried)
	}
	// The same selector, for a step that is no choice: three radios.
	out = run(t, ex, step(2, "fill", "Plan", "x", sel("name", "plan")))
	if out.OK || out.Tried[0].Matches != 3 {
		t.Errorf("a fill by name=plan = %+v; want three matches, not found", out)
	}
}

// An option the list does not have fails before anything is clicked,
// naming the control, never the value.
func TestUnmatchedOptionNamesTheLabelOnly(t *testing.T) {
	ex, s := browser(t)
	for _, st := range []replay.Step{
		choose(7, "combobox", "Country", "Atlantis-8812", sel("id", "#country")),
		choose(7, "radiogroup", "Tier", "Atlantis-8812", sel("label", "Tier")),
		choose(7, "combobox", "Shipping service", "Atlantis-8812", sel("id", "#service")),
		choose(7, "combobox", "State", "Atlantis-8812", sel("id", "#state")),
	} {
		open(t, ex, s.URL+"/widgets")
		out := run(t, ex, st)
		want := `step 8 (select "` + st.Label + `")`
		if out.OK || !strings.Contains(out.Error, want) || strings.Contains(out.Error, "Atlantis") {
			t.Errorf("choosing a missing option in %s = %+v; want a failure starting %s, without the value", st.Label, out, want)
		}
	}
	open(t, ex, s.URL+"/widgets")
	run(t, ex, choose(1, "combobox", "Country", "Atlantis-8812", sel("id", "#country")))
	if v := eval[string](t, ex, `document.getElementById("country").value`); v != "CA" {
		t.Errorf("country = %q after a failed choice; want it untouched (CA)", v)
	}
}

// An optional parameter's empty cell: the list's empty choice, or nothing
// chosen; a group with a choice and no empty option cannot be emptied.
func TestEmptyOptionalChoice(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/widgets")
	mustOK(t, ex, choose(1, "combobox", "Size", "Large", sel("id", "#size")))
	mustOK(t, ex, choose(2, "combobox", "Size", "", sel("id", "#size")))
	if v := eval[string](t, ex, `document.getElementById("size").value`); v != "" {
		t.Errorf("size = %q; want the empty choice", v)
	}
	mustOK(t, ex, choose(3, "radiogroup", "Contact me by", "", sel("name", "contact")))
	mustOK(t, ex, choose(4, "listbox", "Office", "", sel("id", "#office")))
	mustOK(t, ex, choose(5, "combobox", "State", "Nevada", sel("id", "#state")))
	mustOK(t, ex, choose(6, "combobox", "State", "", sel("id", "#state")))
	if v := eval[string](t, ex, `document.getElementById("state").value`); v != "" {
		t.Errorf("state = %q; want it cleared", v)
	}
	mustOK(t, ex, choose(7, "radiogroup", "Contact me by", "Telephone", sel("name", "contact")))
	out := run(t, ex, choose(8, "radiogroup", "Contact me by", "", sel("name", "contact")))
	if out.OK || !strings.Contains(out.Error, `step 9 (select "Contact me by")`) {
		t.Errorf("emptying a radio group = %+v; want a failure", out)
	}
}

// ARIA checkboxes, switches and toggle buttons end in the state asked,
// clicked only when they are not in it; a switch that answers late is
// waited for.
func TestARIATwoStateControls(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/widgets")
	for _, st := range []replay.Step{
		toggle(1, "checkbox", "Send me updates", "true", sel("id", "#updates")),
		toggle(2, "checkbox", "Send me updates", "true", sel("label", "Send me updates")),
		toggle(3, "switch", "Two-factor authentication", "false", sel("role+text", "switch[name='Two-factor authentication']")),
		toggle(4, "switch", "Urgent", "true", sel("id", "#urgent")),
		toggle(5, "switch", "Urgent", "false", sel("id", "#urgent")),
	} {
		mustOK(t, ex, st)
	}
	got := eval[string](t, ex, `["updates", "tfa"].map((id) => document.getElementById(id).getAttribute("aria-checked")).join() + "," + document.getElementById("urgent").getAttribute("aria-pressed")`)
	if got != "true,false,false" {
		t.Errorf("updates, two-factor, urgent = %s; want true,false,false", got)
	}
}

// A field that formats what is typed reads back as the same letters and
// digits; one that changes them does not.
func TestReformattedFieldReadBack(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/widgets")
	mustOK(t, ex, withReadBack(step(1, "fill", "Phone", "5551234567", sel("id", "#phone")), skills.ReadBackValue, "5551234567"))
	if v := eval[string](t, ex, `document.getElementById("phone").value`); v != "(555) 123-4567" {
		t.Errorf("phone shows %q; want the page's format", v)
	}
	out := run(t, ex, withReadBack(step(2, "fill", "Phone", "55512345678", sel("id", "#phone")), skills.ReadBackValue, "55512345678"))
	if out.OK {
		t.Errorf("a phone cut to ten digits read back as held: %+v", out)
	}
}

// A refusal (400) and a submit the browser's own validation stops: the
// first was sent, the second never left the page.
func TestSentAndStatus(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/widgets")
	mustOK(t, ex, step(1, "fill", "Full name", "taken", sel("id", "#full_name")))
	out := run(t, ex, saveStep(2))
	if out.OK || out.Committed || !out.Sent || out.Status != 400 || !out.Watched || !out.NotFiled() || !strings.Contains(out.Error, "step 3 (submit)") {
		t.Errorf("a refused save = %+v; want failed, sent, 400", out)
	}
	if !strings.Contains(out.PageMessage, "that name is taken") {
		t.Errorf("page message %q; want the refusal", out.PageMessage)
	}

	open(t, ex, s.URL+"/widgets")
	before := s.savedCount()
	out = run(t, ex, saveStep(1)) // the required name is empty
	if out.OK || out.Committed || out.Sent || out.Status != 0 || !out.Watched || !out.NotFiled() {
		t.Errorf("a save the browser refused = %+v; want failed, not sent, watched", out)
	}
	if s.savedCount() != before {
		t.Errorf("the site stored a record the browser refused to send")
	}

	// A form's post that redirects: sent, the last answer 200.
	open(t, ex, s.URL+"/customers/new")
	mustOK(t, ex, step(1, "fill", "First Name", "Sent", sel("id", "#first_name")))
	out = mustOK(t, ex, submitStep(2))
	if !out.Committed || !out.Sent || out.Status != 200 {
		t.Errorf("a posted form = %+v; want committed, sent, 200", out)
	}
}

// form_reset fails while the form still holds what was typed.
func TestFormResetCondition(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/customers/new")
	mustOK(t, ex, step(1, "fill", "First Name", "Kept", sel("id", "#first_name")))
	st := step(2, "assert", "", "", sel("id", "#first_name"))
	st.Assert = skills.Conditions{{Kind: skills.CondFormReset, Timeout: "200ms"}}
	if out := run(t, ex, st); out.OK || !strings.Contains(out.Error, "form's reset") {
		t.Errorf("form_reset on a filled form = %+v; want it not to hold", out)
	}
	mustOK(t, ex, step(3, "fill", "First Name", "", sel("id", "#first_name")))
	if out := run(t, ex, st); !out.OK {
		t.Errorf("form_reset on an emptied form = %+v; want it to hold", out)
	}
}
