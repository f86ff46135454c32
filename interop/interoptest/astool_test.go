package interoptest

import (
	"encoding/json"
	"strings"
	"testing"
)

const exported = `{"title": "x", "steps": [
 {"type": "setViewport", "width": 1280, "height": 800},
 {"type": "navigate", "url": "http://127.0.0.1:9/form/new", "assertedEvents": [{"type": "navigation", "url": "http://127.0.0.1:9/form/new"}]},
 {"type": "change", "selectors": [["aria/Name[role=\"textbox\"]"], ["#name"], ["pierce/#name"]], "value": "Ada"},
 {"type": "change", "selectors": [["aria/Plan"], ["[name=\"plan\"]"]], "value": "pro"},
 {"type": "click", "selectors": [["aria/News[role=\"checkbox\"]"], ["aria/News"], ["#news"]], "offsetX": 8, "offsetY": 8},
 {"type": "click", "selectors": [["aria/E-mail[role=\"radio\"]"]]},
 {"type": "change", "selectors": [["aria/E-mail[role=\"textbox\"]"], ["#email"]], "value": "a@b.test"},
 {"type": "click", "selectors": [["aria/Save[role=\"button\"]"], ["form > button"]], "assertedEvents": [{"type": "navigation"}]},
 {"type": "waitForExpression", "expression": "document.body.innerText.includes('Saved')"}
]}`

func TestAsRecorder(t *testing.T) {
	b, err := AsRecorder([]byte(exported), "new customer")
	if err != nil {
		t.Fatal(err)
	}
	var f flow
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, st := range f.Steps {
		sels, _ := json.Marshal(st["selectors"])
		got = append(got, st["type"].(string)+" "+string(sels))
	}
	want := []string{
		"setViewport null",
		"navigate null",
		`click [["aria/Name"],["#name"],["pierce/#name"]]`,
		`change [["aria/Name"],["#name"],["pierce/#name"]]`,
		`click [["aria/Plan"],["[name=\"plan\"]"]]`,
		`change [["aria/Plan"],["[name=\"plan\"]"]]`,
		`click [["aria/News"],["#news"]]`,
		`click [["aria/E-mail[role=\"radio\"]"]]`,
		`click [["aria/E-mail[role=\"textbox\"]"],["#email"]]`,
		`change [["aria/E-mail[role=\"textbox\"]"],["#email"]]`,
		`click [["aria/Save"],["form \u003e button"]]`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("AsRecorder =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f.Title != "new customer" {
		t.Errorf("title %q", f.Title)
	}
	if _, err := AsRecorder([]byte("{"), "x"); err == nil {
		t.Error("AsRecorder took a malformed flow")
	}
}

func TestAsSide(t *testing.T) {
	b, err := AsSide("http://127.0.0.1:9", "customers", [][]byte{[]byte(exported)}, map[string]string{"pro": "Pro plan", "email": "E-mail"})
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		URL   string     `json:"url"`
		Tests []sideTest `json:"tests"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range p.Tests[0].Commands {
		got = append(got, c.Command+" "+c.Target+" "+c.Value)
	}
	want := []string{
		"setWindowSize 1280x800 ",
		"open /form/new ",
		"click id=name ",
		"type id=name Ada",
		"select name=plan label=Pro plan",
		"click id=news ",
		"click xpath=//input[@value='email'] ",
		"click id=email ",
		"type id=email a@b.test",
		"click css=form > button ",
	}
	if save := p.Tests[0].Commands[len(want)-1]; save.Targets[len(save.Targets)-1][0] != "xpath=//button[contains(.,'Save')]" {
		t.Errorf("the Save click's targets = %q; want its text last, as Selenium IDE lists it", save.Targets)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("AsSide =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	radio := `{"steps": [{"type": "click", "selectors": [["aria/Japan[role=\"radio\"]"]]}]}`
	b, err = AsSide("http://x", "x", [][]byte{[]byte(radio)}, nil)
	if err != nil || !strings.Contains(string(b), `"target": "xpath=//label[contains(.,'Japan')]"`) {
		t.Errorf("AsSide of a radio by its name = %s, %v; want it clicked by its label's text", b, err)
	}
	list := `{"steps": [{"type": "click", "selectors": [["aria/Office[role=\"listbox\"]"]]}, {"type": "click", "selectors": [["aria/Zürich[role=\"option\"]"]]}]}`
	b, err = AsSide("http://x", "x", [][]byte{[]byte(list)}, nil)
	if err != nil || strings.Contains(string(b), "Office") || !strings.Contains(string(b), `"target": "xpath=//*[@role='option'][contains(.,'Zürich')]"`) {
		t.Errorf("AsSide of a list's option = %s, %v; want the option clicked alone, by its text", b, err)
	}
	named := `{"steps": [{"type": "click", "selectors": [["aria/Japan"]]}]}`
	if _, err := AsSide("http://x", "x", [][]byte{[]byte(named)}, nil); err == nil || !strings.Contains(err.Error(), "accessible name alone") {
		t.Errorf("AsSide of a click by name alone = %v; want it refused", err)
	}
	hover := `{"steps": [{"type": "hover", "selectors": [["#a"]]}]}`
	if _, err := AsSide("http://x", "x", [][]byte{[]byte(hover)}, nil); err == nil {
		t.Error("AsSide wrote a hover")
	}
}
