package interop

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// sideStep is what a test checks of an imported step.
type sideStep struct {
	Action    string
	Selectors []string // strategy:value, in the step's order
	Role      string
	Label     string
	Value     string // type:raw, or "" for none
}

func sideSteps(steps []events.Step) []sideStep {
	out := make([]sideStep, len(steps))
	for i, s := range steps {
		out[i].Action = s.Action
		if e := s.Enrichment; e != nil {
			for _, sel := range e.Selectors {
				out[i].Selectors = append(out[i].Selectors, sel.Strategy+":"+sel.Value)
			}
			out[i].Role, out[i].Label = e.Role, e.Label
		}
		if v := s.Value; v != nil {
			out[i].Value = v.Type + ":" + v.Raw
		}
	}
	return out
}

// The customer form's fields, as the recorder's targets find them.
var (
	sideFirstName = []string{"id:#first_name", "name:first_name", "xpath://input[@id='first_name']", "xpath://form[@id='customer']/label/input", "xpath://label/input"}
	sideEmail     = []string{"id:#email", "name:email", "xpath://input[@id='email']", "xpath://form[@id='customer']/label[2]/input", "xpath://label[2]/input"}
	sidePlan      = []string{"id:#plan", "name:plan", "xpath://select[@id='plan']", "xpath://form[@id='customer']/label[3]/select", "xpath://select"}
	sideNews      = []string{"id:#newsletter", "name:newsletter", "xpath://input[@id='newsletter']", "xpath://form[@id='customer']/label[4]/input", "xpath://label[4]/input"}
	sideSave      = []string{"role+text:button[name='Save']", "css:.btn-primary", "xpath://button[@type='submit']", "xpath://form[@id='customer']/button", "xpath://button", "xpath://button[contains(.,'Save')]"}
)

func sideCustomer(name, email, plan string) []sideStep {
	return []sideStep{
		{Action: "navigate", Value: "text:https://crm.example.com/customers/new"},
		{Action: "fill", Selectors: sideFirstName, Role: "textbox", Value: "text:" + name},
		{Action: "fill", Selectors: sideEmail, Role: "textbox", Value: "email:" + email},
		{Action: "select", Selectors: sidePlan, Role: "combobox", Value: "enum:" + plan},
		{Action: "click", Selectors: sideNews, Role: "checkbox", Value: "text:true"},
		{Action: "click", Selectors: sideSave, Role: "button", Label: "Save"},
	}
}

func TestImportSideProject(t *testing.T) {
	data, err := os.ReadFile("testdata/side/customer.side")
	if err != nil {
		t.Fatal(err)
	}
	flows, err := Import(data)
	if err != nil {
		t.Fatalf("Import(customer.side) = %v", err)
	}
	const focus = "a click on the field the next step fills: reprise focuses each field itself"
	const size = "setWindowSize: a skill sets its page's size once, with browser: {viewport: {width: 1280, height: 800}} (the page's size; Selenium's is the whole window's, a little larger); add it to the skill to keep this size"
	want := []struct {
		title string
		steps []sideStep
		notes []string
	}{
		{"Add customer Ada", sideCustomer("Ada Lovelace", "ada@example.com", "Pro"), []string{"line 16: " + size, "line 23: " + focus}},
		{"Add customer Grace", sideCustomer("Grace Hopper", "grace@example.org", "Team"), []string{
			"line 117: " + size,
			"line 131: waitForElementPresent and waitForElementVisible: reprise waits for each step's element by itself (up to 10 s), so these waits need no step",
			"line 138: " + focus,
			"line 194: commands disabled in Selenium IDE (//): Selenium IDE skips them, and so does the import",
			"line 228: close: reprise closes the browser after the last row",
		}},
	}
	if len(flows) != len(want) {
		t.Fatalf("Import(customer.side) = %d flows; want %d", len(flows), len(want))
	}
	for i, w := range want {
		f := flows[i]
		if f.Format != FormatSide || f.Title != w.title {
			t.Errorf("flow %d = %q %q; want %q %q", i, f.Format, f.Title, FormatSide, w.title)
		}
		if got := sideSteps(f.Steps); !reflect.DeepEqual(got, w.steps) {
			t.Errorf("flow %d steps =\n%+v\nwant\n%+v", i, got, w.steps)
		}
		for j, s := range f.Steps {
			if s.Seq != uint64(j+1) || s.Enrichment != nil && s.Enrichment.URL != "https://crm.example.com/customers/new" {
				t.Errorf("flow %d step %d: seq %d, enrichment %+v; want seq %d on the new-customer page", i, j, s.Seq, s.Enrichment, j+1)
			}
		}
		if !reflect.DeepEqual(f.Notes, w.notes) {
			t.Errorf("flow %d notes =\n%q\nwant\n%q", i, f.Notes, w.notes)
		}
	}
}

// sideFile is a project whose one test holds cmds, one a line: the
// command cmds[k] is on line 6+k.
func sideFile(url string, cmds ...string) string {
	return "{\n" +
		`"url": "` + url + "\",\n" +
		"\"tests\": [{\n" +
		"\"name\": \"t\",\n" +
		"\"commands\": [\n" +
		strings.Join(cmds, ",\n") +
		"\n]}]}\n"
}

// sideCmd is one command, with the target's locators as its targets.
func sideCmd(command, target, value string, targets ...string) string {
	pairs := make([]string, len(targets))
	for i, t := range targets {
		pairs[i] = fmt.Sprintf("[%q, %q]", t, "x")
	}
	return fmt.Sprintf(`{"command": %q, "target": %q, "targets": [%s], "value": %q}`, command, target, strings.Join(pairs, ", "), value)
}

const sideURL = "https://crm.example.com/app/"

func TestImportSideCommands(t *testing.T) {
	open := sideCmd("open", "customers/new", "")
	page := "text:https://crm.example.com/app/customers/new"
	for _, tc := range []struct {
		name  string
		cmds  []string
		steps []sideStep
		notes []string
	}{{
		name:  "absolute open",
		cmds:  []string{sideCmd("open", "https://other.example.com/x?y=1", "")},
		steps: []sideStep{{Action: "navigate", Value: "text:https://other.example.com/x?y=1"}},
	}, {
		name: "Enter after type submits the field",
		cmds: []string{open, sideCmd("type", "name=q", "ada"), sideCmd("sendKeys", "name=q", "${KEY_ENTER}")},
		steps: []sideStep{{Action: "navigate", Value: page},
			{Action: "fill", Selectors: []string{"name:q"}, Role: "textbox", Value: "text:ada"},
			{Action: "submit", Selectors: []string{"name:q"}, Role: "textbox"}},
	}, {
		name: "submit, uncheck, select value=, bare option, clickAt",
		cmds: []string{open, sideCmd("uncheck", "id=news", ""), sideCmd("select", "name=plan", "value=pro"),
			sideCmd("select", "name=size", "Large"), sideCmd("clickAt", "id=go", "3,4"), sideCmd("submit", "id=f", "")},
		steps: []sideStep{{Action: "navigate", Value: page},
			{Action: "click", Selectors: []string{"id:#news"}, Role: "checkbox", Value: "text:false"},
			{Action: "select", Selectors: []string{"name:plan"}, Role: "combobox", Value: "enum:pro"},
			{Action: "select", Selectors: []string{"name:size"}, Role: "combobox", Value: "enum:Large"},
			{Action: "click", Selectors: []string{"id:#go"}},
			{Action: "submit", Selectors: []string{"id:#f"}}},
		notes: []string{"line 10: clickAt: reprise clicks the element itself, not the point within it that the offset names"},
	}, {
		name: "links, odd ids and every locator kind",
		cmds: []string{open,
			sideCmd("click", "linkText=Customers", "", "link=Customers", "partialLinkText=Bob's  \"best\"", "//a[1]"),
			sideCmd("click", "id=form:save.1", "", "css=div > button", "css=[name=\"go\"]", "xpath=//button")},
		steps: []sideStep{{Action: "navigate", Value: page},
			{Action: "click", Selectors: []string{"role+text:link[name='Customers']", `xpath://a[contains(normalize-space(.), concat('Bob', "'", 's "best"'))]`, "xpath://a[1]"}, Role: "link", Label: "Customers"},
			{Action: "click", Selectors: []string{`id:#form\3a save\2e 1`, "name:go", "css:div > button", "xpath://button"}}},
	}, {
		name: "a password's value stays out, even a variable",
		cmds: []string{open, sideCmd("type", "id=password", "${secret}")},
		steps: []sideStep{{Action: "navigate", Value: page},
			{Action: "fill", Selectors: []string{"id:#password"}, Role: "textbox", Value: "secret:"}},
		notes: []string{"line 7: a password field's value was not imported; replay asks for it"},
	}, {
		name: "absorbed: pause, frames, comments, empty rows, a close after which only comments come",
		cmds: []string{open, sideCmd("pause", "1000", ""), sideCmd("selectFrame", "index=0", ""), sideCmd("pause", "", ""),
			`{"comment": "why", "command": "", "target": "", "value": ""}`, sideCmd("close", "", ""), sideCmd("//open", "", ""),
			`{"command": ""}`},
		steps: []sideStep{{Action: "navigate", Value: page}},
		notes: []string{
			"lines 7, 9: pause: reprise waits on the page's events, not on time",
			"line 8: selectFrame: reprise looks into same-origin frames by itself",
			"line 11: close: reprise closes the browser after the last row",
			"line 12: commands disabled in Selenium IDE (//): Selenium IDE skips them, and so does the import",
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			flows, err := Import([]byte(sideFile(sideURL, tc.cmds...)))
			if err != nil {
				t.Fatalf("Import = %v", err)
			}
			if len(flows) != 1 {
				t.Fatalf("Import = %d flows; want 1", len(flows))
			}
			if got := sideSteps(flows[0].Steps); !reflect.DeepEqual(got, tc.steps) {
				t.Errorf("steps =\n%+v\nwant\n%+v", got, tc.steps)
			}
			if !reflect.DeepEqual(flows[0].Notes, tc.notes) {
				t.Errorf("notes =\n%q\nwant\n%q", flows[0].Notes, tc.notes)
			}
		})
	}
}

// sideSecrets are values the refusal cases type: no error may quote them.
var sideSecrets = []string{"Ada Lovelace", "ada@example.com", "4111111111111111", "zzsecret", "Premium Gold"}

func TestImportSideRefusals(t *testing.T) {
	typed := sideCmd("type", "id=email", "ada@example.com")
	open := sideCmd("open", "/new", "")
	for _, tc := range []struct {
		name  string
		file  string
		line  int
		field string
		say   string // a part of the problem
	}{
		{"not JSON", "{\n\"tests\": [\n{\"name\": \"Ada Lovelace\",}\n]}", 3, "", "not valid JSON"},
		{"tests not a list", "{\n\"url\": \"https://a.example\",\n\"tests\": {\"name\": \"t\"}\n}", 3, "tests", "must be a list"},
		{"empty tests", "{\n\"name\": \"p\",\n\n\"tests\": []\n}", 4, "tests", "holds no test"},
		{"test not an object", "{\n\"tests\": [\n\"t\"\n]}", 3, "tests[0]", "must be an object"},
		{"commands missing", "{\n\"tests\": [\n{\"name\": \"t\"}\n]}", 3, "tests[0].commands", "is missing"},
		{"no replayable command", sideFile(sideURL, sideCmd("pause", "1", "")), 3, "tests[0].commands", "no command reprise can replay"},
		{"command missing", sideFile(sideURL, open, `{"target": "id=email", "value": "ada@example.com"}`), 7, "tests[0].commands[1].command", "is missing"},
		{"command not a string", sideFile(sideURL, open, `{"command": 7}`), 7, "tests[0].commands[1].command", "must be a string"},
		{"empty command with a value", sideFile(sideURL, open, `{"command": "", "target": "id=email", "value": "Ada Lovelace"}`), 7, "tests[0].commands[1].command", "is empty"},
		{"unknown command", sideFile(sideURL, open, typed, sideCmd("typo", "id=email", "Ada Lovelace")), 8, "tests[0].commands[2].command", `"typo" is not a Selenium IDE command`},
		{"unknown locator", sideFile(sideURL, open, sideCmd("type", "id=email", "Ada Lovelace", "custom_loc=zzsecret")), 7, "tests[0].commands[1].targets[0]", `"custom_loc"= locator is not one reprise knows`},
		{"unprefixed locator", sideFile(sideURL, open, sideCmd("click", "zzsecret", "")), 7, "tests[0].commands[1].target", "is not a locator"},
		{"label is no locator", sideFile(sideURL, open, sideCmd("click", "label=zzsecret", "")), 7, "tests[0].commands[1].target", "not a locator"},
		{"targets pair", sideFile(sideURL, open, `{"command": "click", "target": "id=a", "targets": [["id=a"]]}`), 7, "tests[0].commands[1].targets[0]", "pair"},
		{"targets not a list", sideFile(sideURL, open, `{"command": "click", "target": "id=a", "targets": "id=a"}`), 7, "tests[0].commands[1].targets", "must be a list"},
		{"no target", sideFile(sideURL, open, sideCmd("click", "", "")), 7, "tests[0].commands[1].target", `"click" needs the locator`},
		{"variable in a locator", sideFile(sideURL, open, sideCmd("click", "css=#${row}", "")), 7, "tests[0].commands[1].target", "variable"},
		{"variable in a value", sideFile(sideURL, open, sideCmd("type", "id=email", "${email}")), 7, "tests[0].commands[1].value", "variable"},
		{"select index=", sideFile(sideURL, open, sideCmd("select", "id=plan", "index=2")), 7, "tests[0].commands[1].value", "index="},
		{"select id=", sideFile(sideURL, open, sideCmd("select", "id=plan", "id=opt-zzsecret")), 7, "tests[0].commands[1].value", "id="},
		{"select unknown option", sideFile(sideURL, open, sideCmd("select", "id=plan", "Premium Gold=zzsecret")), 7, "tests[0].commands[1].value", "not an option locator"},
		{"select empty label", sideFile(sideURL, open, sideCmd("select", "id=plan", "label=")), 7, "tests[0].commands[1].value", "needs an option"},
		{"addSelection", sideFile(sideURL, open, sideCmd("addSelection", "id=plan", "label=Premium Gold")), 7, "tests[0].commands[1].command", "one option"},
		{"open without project url", sideFile("", sideCmd("open", "/customers/new", "")), 6, "tests[0].commands[0].target", "the project has no url"},
		{"open with a bad project url", "{\n\"tests\": [{\"name\": \"t\", \"commands\": [\n" + sideCmd("open", "/x", "") + "\n]}],\n\"url\": \"crm\"\n}", 5, "url", "whole web address"},
		{"open javascript:", sideFile(sideURL, sideCmd("open", "javascript:alert(1)", "")), 6, "tests[0].commands[0].target", "page script"},
		{"sendKeys Enter after no type", sideFile(sideURL, open, sideCmd("sendKeys", "id=q", "${KEY_ENTER}")), 7, "tests[0].commands[1].value", "does not follow a type"},
		{"sendKeys text", sideFile(sideURL, open, typed, sideCmd("sendKeys", "id=q", "4111111111111111")), 8, "tests[0].commands[2].value", "put text in a type command"},
		{"click opens a window", sideFile(sideURL, open, `{"command": "click", "target": "id=help", "opensWindow": true}`), 7, "tests[0].commands[1].opensWindow", "one tab"},
		{"close before the end", sideFile(sideURL, open, sideCmd("close", "", ""), typed), 7, "tests[0].commands[1].command", "close before"},
		{"setWindowSize", sideFile(sideURL, open, sideCmd("setWindowSize", "big", "")), 7, "tests[0].commands[1].target", "1280x800"},
		{"assertText", sideFile(sideURL, open, typed, sideCmd("assertText", "css=.msg", "Ada Lovelace")), 8, "tests[0].commands[2].command", "only a text checked right after the click that sends the form"},
		{"assertElementPresent", sideFile(sideURL, open, typed, sideCmd("assertElementPresent", "css=.msg", "")), 8, "tests[0].commands[2].command", SuccessAnswer},
		{"verifyElementPresent", sideFile(sideURL, open, sideCmd("verifyElementPresent", "id=ok", "")), 7, "tests[0].commands[1].command", SuccessAnswer},
		{"storeText", sideFile(sideURL, open, sideCmd("storeText", "id=total", "zzsecret")), 7, "tests[0].commands[1].command", "no variables"},
		{"waitForText", sideFile(sideURL, open, sideCmd("waitForText", "id=msg", "Ada Lovelace")), 7, "tests[0].commands[1].command", `"waitForText" has no reprise equivalent`},
		{"waitForElementNotVisible", sideFile(sideURL, open, sideCmd("waitForElementNotVisible", "id=spinner", "")), 7, "tests[0].commands[1].command", "waits only"},
		{"mouseOver", sideFile(sideURL, open, sideCmd("mouseOver", "id=menu", "")), 7, "tests[0].commands[1].command", "pointer"},
		{"doubleClick", sideFile(sideURL, open, sideCmd("doubleClick", "id=row", "")), 7, "tests[0].commands[1].command", "single clicks"},
		{"dragAndDropToObject", sideFile(sideURL, open, sideCmd("dragAndDropToObject", "id=a", "id=b")), 7, "tests[0].commands[1].command", "drags"},
		{"runScript", sideFile(sideURL, open, sideCmd("runScript", "window.x = 'zzsecret'", "")), 7, "tests[0].commands[1].command", "page script"},
		{"executeScript", sideFile(sideURL, open, sideCmd("executeScript", "return 1", "x")), 7, "tests[0].commands[1].command", "page script"},
		{"if", sideFile(sideURL, open, sideCmd("if", "${x} > 1", "")), 7, "tests[0].commands[1].command", "no branches or loops"},
		{"times", sideFile(sideURL, open, sideCmd("times", "3", "")), 7, "tests[0].commands[1].command", "no branches or loops"},
		{"run", sideFile(sideURL, open, sideCmd("run", "login", "")), 7, "tests[0].commands[1].command", "another test"},
		{"echo", sideFile(sideURL, open, sideCmd("echo", "zzsecret", "")), 7, "tests[0].commands[1].command", "log"},
		{"selectWindow", sideFile(sideURL, open, sideCmd("selectWindow", "handle=${win}", "")), 7, "tests[0].commands[1].command", "one tab"},
		{"chooseCancelOnNextConfirmation", sideFile(sideURL, open, sideCmd("chooseCancelOnNextConfirmation", "", "")), 7, "tests[0].commands[1].command", "cancels a dialog"},
		{"answerOnNextPrompt", sideFile(sideURL, open, sideCmd("answerOnNextPrompt", "zzsecret", "")), 7, "tests[0].commands[1].command", "prompt"},
		{"setSpeed", sideFile(sideURL, open, sideCmd("setSpeed", "500", "")), 7, "tests[0].commands[1].command", "not on time"},
		{"editContent", sideFile(sideURL, open, sideCmd("editContent", "id=note", "zzsecret")), 7, "tests[0].commands[1].command", "editable page content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			flows, err := Import([]byte(tc.file))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Import = %v, %v; want an *Error", flows, err)
			}
			if e.Line != tc.line || e.Field != tc.field || !strings.Contains(e.Problem, tc.say) {
				t.Errorf("Import = line %d, field %q, %q; want line %d, field %q, saying %q", e.Line, e.Field, e.Problem, tc.line, tc.field, tc.say)
			}
			for _, v := range sideSecrets {
				if strings.Contains(e.Error(), v) {
					t.Errorf("Import = %q; it quotes a value of the file", e.Error())
				}
			}
		})
	}
}

// FuzzImport feeds both formats' files and broken ones to Import: it never
// panics, refuses with an *Error, and every flow it accepts is valid.
func FuzzImport(f *testing.F) {
	for _, file := range []string{"testdata/side/customer.side", "testdata/recorder/new-customer-ada.json", "testdata/recorder/new-customer-grace.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, tc := range recorderRefusals {
		f.Add([]byte(tc.flow))
	}
	for _, s := range []string{
		sideFile(sideURL, sideCmd("open", "/a", ""), sideCmd("type", "id=a", "b"), sideCmd("sendKeys", "id=a", "${KEY_ENTER}")),
		sideFile("", sideCmd("open", "/a", "")),
		sideFile(sideURL, sideCmd("click", "partialLinkText=a'b\"c", "", "linkText=x", "//a")),
		sideFile(sideURL, sideCmd("select", "id=p", "label=mostly-equals:A"), sideCmd("close", "", "")),
		`{"tests": []}`,
		`{"tests": [{"commands": [{}]}]}`,
		`{"tests": {}}`,
		`{"url": 5, "tests": [1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		flows, err := Import(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) && !errors.Is(err, ErrUnknownFormat) {
				t.Fatalf("Import = %v (%T); want an *Error or ErrUnknownFormat", err, err)
			}
			return
		}
		for _, fl := range flows {
			if len(fl.Steps) == 0 {
				t.Fatalf("Import = a flow of no steps: %+v", fl)
			}
			for i := range fl.Steps {
				if err := fl.Steps[i].Validate(); err != nil {
					t.Fatalf("Import = step %d invalid: %v", i+1, err)
				}
			}
		}
	})
}

// TestSideAssertTextIsTheSuccessCheck: a text a test checks right after
// the click that sends the form is what success looked like there.
func TestSideAssertTextIsTheSuccessCheck(t *testing.T) {
	data, err := os.ReadFile("testdata/side/new-customers.side")
	if err != nil {
		t.Fatal(err)
	}
	flows, err := Import([]byte(strings.ReplaceAll(string(data), "{{base}}", "http://crm.example.test")))
	if err != nil {
		t.Fatal(err)
	}
	if len(flows) != 2 {
		t.Fatalf("%d flows; want 2", len(flows))
	}
	for _, fl := range flows {
		last := fl.Steps[len(fl.Steps)-1]
		if last.Action != events.ActionClick || last.Effect == nil || !slices.Equal(last.Effect.Texts, []string{"Customer created"}) {
			t.Errorf("%s: the last step is %s with effect %+v; want the Save click with the checked text", fl.Title, last.Action, last.Effect)
		}
	}
}
