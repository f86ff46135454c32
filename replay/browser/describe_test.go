package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/skills"
)

// TestDescribe: the page describes the element selectors find as the
// recorder would have recorded it (a box and its state, a list and its
// options, a radio as its group's option, a field by its role), finds
// nothing for a name two elements share, and never hands back what a
// field holds.
func TestDescribe(t *testing.T) {
	ex := launch(t, nil)
	openPage(t, ex, `<!doctype html><form>
<p><label for="email">Email</label> <input id="email" value="typed@example.test"></p>
<p><label for="plan">Plan</label><select id="plan"><option value="">Choose</option><option value="basic">Basic</option><option value="pro" selected>Professional</option></select></p>
<p><input id="news" type="checkbox" checked> <label for="news">Send the newsletter</label></p>
<fieldset><legend>Tier</legend><label><input type="radio" name="tier" value="s"> Starter</label><label><input id="g" type="radio" name="tier" value="g"> Growth</label></fieldset>
<button type="button">Twice</button><button type="button">Twice</button><button>Save</button>
</form>`)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	describe := func(strategy, value string) (Described, bool) {
		t.Helper()
		d, ok, err := ex.Describe(ctx, []skills.Selector{{Strategy: strategy, Value: value}}, 300*time.Millisecond)
		if err != nil {
			t.Fatalf("Describe %s=%s: %v", strategy, value, err)
		}
		if b, _ := json.Marshal(d); strings.Contains(string(b), "typed@example.test") {
			t.Errorf("Describe %s=%s handed back the field's value: %s", strategy, value, b)
		}
		return d, ok
	}
	if d, ok := describe("label", "Send the newsletter"); !ok || d.Kind != "toggle" || d.Role != "checkbox" || d.State != "true" || len(d.Selectors) == 0 || d.Selectors[0].Value != "#news" {
		t.Errorf("the box = %+v, %v; want a checked checkbox found by #news", d, ok)
	}
	if d, ok := describe("id", "#plan"); !ok || d.Kind != "choice" || d.How != "select" || d.Label != "Plan" || len(d.Options) != 3 || d.Options[2].Label != "Professional" || d.Options[2].Value != "pro" {
		t.Errorf("the list = %+v, %v; want the select Plan with its three options", d, ok)
	}
	if d, ok := describe("id", "#g"); !ok || d.Kind != "choice" || d.Member != "Growth" || d.Role != "radiogroup" || len(d.Options) != 2 {
		t.Errorf("the radio = %+v, %v; want Growth of its group", d, ok)
	}
	if d, ok := describe("label", "Email"); !ok || d.Kind != "text" || d.Role != "textbox" || d.State != "" {
		t.Errorf("the field = %+v, %v; want a textbox", d, ok)
	}
	// A click Selenium IDE recorded on a label's text is on its control.
	if d, ok := describe("xpath", "//label[contains(.,'Starter')]"); !ok || d.Member != "Starter" || d.Role != "radiogroup" {
		t.Errorf("the label of a radio = %+v, %v; want Starter of its group", d, ok)
	}
	if d, ok := describe("xpath", "//label[contains(.,'newsletter')]"); !ok || d.Kind != "toggle" || d.State != "true" {
		t.Errorf("the label of a box = %+v, %v; want the checked box", d, ok)
	}
	// Every element comes with its form's fields, as the recorder lists
	// them at a destructive step: labels and roles, no values.
	d, _ := describe("role+text", "button[name='Save']")
	var got []string
	for _, f := range d.Fields {
		got = append(got, f.Role+" "+f.Label)
	}
	if want := "textbox Email|combobox Plan|checkbox Send the newsletter|radiogroup Tier"; strings.Join(got, "|") != want {
		t.Errorf("the form's fields = %q; want %q", strings.Join(got, "|"), want)
	}
	if d, ok := describe("role+text", "button[name='Twice']"); ok {
		t.Errorf("two buttons named Twice described as one: %+v", d)
	}
}
