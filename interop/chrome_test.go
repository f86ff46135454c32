package interop

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// TestImportRecorderFlow reads the hand-written flow: what each step
// becomes, every selector kept in reprise's order, and a note for what
// reprise does by itself.
func TestImportRecorderFlow(t *testing.T) {
	data, err := os.ReadFile("testdata/recorder/new-customer-ada.json")
	if err != nil {
		t.Fatal(err)
	}
	flows, err := Import(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(flows) != 1 || flows[0].Format != FormatChromeRecorder || flows[0].Title != "New customer" {
		t.Fatalf("Import = %d flows %+v", len(flows), flows)
	}
	type want struct{ action, role, label, value, selectors string }
	wants := []want{
		{"navigate", "", "", "{{base}}/new", ""},
		{"fill", "textbox", "First name", "Ada", `id=#first_name label=First name xpath=//*[@id="first_name"]`},
		{"fill", "textbox", "Email", "ada@example.test", `id=#email label=Email xpath=//*[@id="email"]`},
		{"fill", "textbox", "Plan", "basic", `id=#plan label=Plan xpath=//*[@id="plan"]`},
		{"click", "checkbox", "Send the newsletter", "true", `id=#newsletter role+text=checkbox[name='Send the newsletter'] xpath=//*[@id="newsletter"]`},
		{"fill", "textbox", "Note", "Met at the fair", `id=#note label=Note`},
		{"fill", "textbox", "Reference", "R-100", `id=#reference label=Reference xpath=//*[@id="reference"]`},
		{"submit", "button", "Save", "", `label=Save role+text=button[name='Save'] css=#customer > p:nth-child(9) > button xpath=//*[@id="customer"]/p[5]/button`},
	}
	steps := flows[0].Steps
	if len(steps) != len(wants) {
		t.Fatalf("%d steps; want %d", len(steps), len(wants))
	}
	for i, w := range wants {
		s := steps[i]
		got := want{action: s.Action}
		if s.Value != nil {
			got.value = s.Value.Raw
		}
		if e := s.Enrichment; e != nil {
			got.role, got.label = e.Role, e.Label
			var sels []string
			for _, sel := range e.Selectors {
				sels = append(sels, sel.Strategy+"="+sel.Value)
			}
			got.selectors = strings.Join(sels, " ")
		}
		if got != w {
			t.Errorf("step %d = %+v\n want %+v", i+1, got, w)
		}
		if s.Seq != uint64(i+1) || s.Outcome != events.OutcomeOK || s.Actor != events.ActorHuman {
			t.Errorf("step %d: seq %d outcome %s actor %s", i+1, s.Seq, s.Outcome, s.Actor)
		}
	}
	if e := steps[7].Effect; e == nil || e.URL != "{{base}}/customers/1" {
		t.Errorf("the submit's effect = %+v; want the asserted navigation", e)
	}
	notes := strings.Join(flows[0].Notes, "\n")
	for _, n := range []string{
		"line 4: setViewport: a skill sets its page's size once, with browser: {viewport: {width: 1280, height: 800}}",
		"lines 24, 131, 166: a click on the field the next step fills",
		"line 63: Tab presses",
		"line 111: a click on a checkbox is taken to check it",
		"line 211: scroll: reprise scrolls each element into view",
	} {
		if !strings.Contains(notes, n) {
			t.Errorf("notes do not say %q:\n%s", n, notes)
		}
	}
}

// recorderRefusals are flows Import refuses, with the line and field it
// names. None of the errors may quote a value.
var recorderRefusals = []struct {
	name, flow string
	line       int
	field      string
	problem    string
}{
	{"not JSON", "{\n  \"steps\": [\n    {\"type\": \"navigate\",\n", 4, "", "not valid JSON"},
	{"steps not a list", "{\"title\": \"x\",\n \"steps\": {\"type\": \"navigate\"}}", 2, "steps", "must be a list"},
	{"no type", "{\"steps\": [\n {\"url\": \"https://secret.example/x\"}\n]}", 2, "steps[0].type", "is missing"},
	{"unknown type", "{\"steps\": [\n {\"type\": \"navigate\", \"url\": \"https://a.example/\"},\n {\"type\": \"teleport\"}\n]}", 3, "steps[1].type", `"teleport" is not a Chrome Recorder step type`},
	{"hover", "{\"steps\": [\n\n {\"type\": \"hover\", \"selectors\": [[\"#menu\"]]}\n]}", 3, "steps[0].type", "hover has no reprise equivalent"},
	{"double click", "{\"steps\": [{\"type\": \"doubleClick\", \"selectors\": [[\"#a\"]]}]}", 1, "steps[0].type", "doubleClick has no reprise equivalent"},
	{"expression", "{\"steps\": [\n{\"type\": \"waitForExpression\", \"expression\": \"secretValue\"}]}", 2, "steps[0].type", "reprise runs no page script"},
	{"custom", "{\"steps\": [{\"type\": \"customStep\", \"name\": \"x\", \"parameters\": {}}]}", 1, "steps[0].type", "customStep has no reprise equivalent"},
	{"network", "{\"steps\": [{\"type\": \"emulateNetworkConditions\", \"download\": 1, \"upload\": 1, \"latency\": 1}]}", 1, "steps[0].type", "reprise replays on the network as it is"},
	{"change without selectors", "{\"steps\": [\n {\"type\": \"change\", \"value\": \"hunter2\"}\n]}", 2, "steps[0].selectors", "change needs at least one selector"},
	{"change without value", "{\"steps\": [{\"type\": \"change\", \"selectors\": [\"#a\"]}]}", 1, "steps[0].value", "change needs a value"},
	{"selector not a string", "{\"steps\": [\n {\"type\": \"click\",\n  \"selectors\": [5]}\n]}", 2, "steps[0].selectors", "each selector is a string or a list of strings"},
	{"empty selector", "{\"steps\": [{\"type\": \"click\", \"selectors\": [[]]}]}", 1, "steps[0].selectors[0]", "is empty"},
	{"unknown prefix", "{\"steps\": [{\"type\": \"click\", \"selectors\": [\"shadow/#a\"]}]}", 1, "steps[0].selectors[0]", `"shadow"/ selector is not one reprise knows`},
	{"right click", "{\"steps\": [{\"type\": \"click\", \"button\": \"secondary\", \"selectors\": [\"#a\"]}]}", 1, "steps[0].button", "secondary"},
	{"another tab", "{\"steps\": [{\"type\": \"click\", \"target\": \"https://popup.example/\", \"selectors\": [\"#a\"]}]}", 1, "steps[0].target", "another tab"},
	{"escape key", "{\"steps\": [{\"type\": \"keyDown\", \"key\": \"Escape\"}, {\"type\": \"keyUp\", \"key\": \"Escape\"}]}", 1, "steps[0].key", "\"Escape\" key press has no reprise equivalent"},
	{"enter alone", "{\"steps\": [{\"type\": \"keyDown\", \"key\": \"Enter\"}]}", 1, "steps[0].key", "Enter that does not follow a change"},
	{"key never released", "{\"steps\": [{\"type\": \"change\", \"selectors\": [\"#a\"], \"value\": \"v\"},\n{\"type\": \"keyDown\", \"key\": \"Enter\"}]}", 2, "steps", "never released"},
	{"key up alone", "{\"steps\": [{\"type\": \"keyUp\", \"key\": \"Tab\"}]}", 1, "steps[0].key", "follows no keyDown"},
	{"wait until gone", "{\"steps\": [{\"type\": \"waitForElement\", \"selectors\": [\"#spinner\"], \"visible\": false}]}", 1, "steps[0]", "waitForElement with"},
	{"close midway", "{\"steps\": [{\"type\": \"close\"}, {\"type\": \"navigate\", \"url\": \"https://a.example/\"}]}", 1, "steps[0].type", "close before the flow's last step"},
	{"navigate without url", "{\"steps\": [{\"type\": \"navigate\"}]}", 1, "steps[0].url", "navigate needs a url"},
	{"viewport of nothing", "{\"steps\": [{\"type\": \"setViewport\", \"width\": 0, \"height\": 0}]}", 1, "steps[0].width", "setViewport needs a width"},
	{"only absorbed", "{\"steps\": [{\"type\": \"scroll\"}]}", 0, "steps", "no step reprise can replay"},
	{"wrong type of field", "{\"steps\": [\n{\"type\": \"navigate\", \"url\": 5}]}", 2, "steps[0].url", "must be a string"},
}

func TestImportRecorderRefusals(t *testing.T) {
	for _, tc := range recorderRefusals {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Import([]byte(tc.flow))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Import = %v; want an *Error", err)
			}
			if e.Line != tc.line || e.Field != tc.field || !strings.Contains(e.Problem, tc.problem) {
				t.Errorf("Import = line %d field %q problem %q;\nwant line %d field %q problem containing %q", e.Line, e.Field, e.Problem, tc.line, tc.field, tc.problem)
			}
			for _, secret := range []string{"hunter2", "secretValue", "secret.example"} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error quotes a value: %v", err)
				}
			}
		})
	}
	if _, err := Import([]byte(`{"name": "neither"}`)); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("a JSON object of neither format: %v", err)
	}
}
