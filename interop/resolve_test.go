package interop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

// fakePage is a page of known elements, found by any of their selectors;
// it records what was opened.
type fakePage struct {
	els    []Element
	opened []string
	fail   string // a URL that does not open
}

func (p *fakePage) Open(_ context.Context, url string) error {
	if url == p.fail {
		return errors.New("net::ERR_CONNECTION_REFUSED")
	}
	p.opened = append(p.opened, url)
	return nil
}

func (p *fakePage) Describe(_ context.Context, sels []events.Selector) (Element, bool, error) {
	for _, el := range p.els {
		for _, s := range sels {
			for _, mine := range el.Selectors {
				if s == mine {
					return el, true, nil
				}
			}
		}
	}
	return Element{}, false, nil
}

var (
	newsletter = Element{Kind: "toggle", How: "native", Role: "checkbox", Label: "Send the newsletter", State: "false",
		Selectors: []events.Selector{{Strategy: events.StrategyID, Value: "#newsletter"}, {Strategy: events.StrategyLabel, Value: "Send the newsletter"}}}
	plan = Element{Kind: "choice", How: "select", Role: "combobox", Label: "Plan",
		Selectors: []events.Selector{{Strategy: events.StrategyID, Value: "#plan"}},
		Options:   []events.Option{{Label: "Choose one"}, {Label: "Basic", Value: "basic"}, {Label: "Enterprise", Value: "ent"}}}
	email = Element{Kind: "text", Role: "textbox", Label: "Email", Selectors: []events.Selector{{Strategy: events.StrategyID, Value: "#email"}}}
	save  = Element{Kind: "action", Role: "button", Label: "Save",
		Selectors: []events.Selector{{Strategy: events.StrategyCSS, Value: "#customer > p:nth-child(9) > button"}},
		Fields:    []events.Field{{Label: "Send the newsletter", Role: "checkbox", Type: "checkbox", Name: "newsletter"}, {Label: "Email", Role: "textbox", Type: "email", Name: "email"}}}
)

// TestResolveRecorderFlow: a Recorder flow naming the box without its
// role and the list by a value becomes what a demonstration records: the
// box's state after the click, the list's choice by its label with its
// options; the steps after the submit are not reached.
func TestResolveRecorderFlow(t *testing.T) {
	flow := importTestFile(t, "recorder", "bare-ada.json")[0]
	page := &fakePage{els: []Element{newsletter, plan, email, save}}
	notes, err := Resolve(context.Background(), &flow, page)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.opened) != 1 || !strings.HasSuffix(page.opened[0], "/new") {
		t.Errorf("opened %q; want the flow's one page", page.opened)
	}
	box := stepOn(t, flow, "#newsletter")
	if box.Action != events.ActionClick || box.Enrichment.Role != "checkbox" || box.Value == nil || box.Value.Raw != "true" {
		t.Errorf("the newsletter click = %s role %q value %+v; want a click that leaves the box checked", box.Action, box.Enrichment.Role, box.Value)
	}
	list := stepOn(t, flow, "#plan")
	if list.Action != events.ActionSelect || list.Value.Raw != "Basic" || list.Value.Type != events.ValueEnum || len(list.Enrichment.Options) != 3 {
		t.Errorf("the plan step = %s %+v options %v; want the select of Basic with the page's options", list.Action, list.Value, list.Enrichment.Options)
	}
	// The form's fields at the submit, as a demonstration lists them: a
	// column may fill a box that neither flow clicked.
	if sub := stepOn(t, flow, save.Selectors[0].Value); !reflect.DeepEqual(sub.Fields, save.Fields) {
		t.Errorf("the submit's fields = %+v; want the page's form %+v", sub.Fields, save.Fields)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"a click on a box leaves it checked", "text typed into a list is the choice of its option", "options are read from the page", "not resolved: no one element", "the form's fields are read from the page"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes do not say %q:\n%s", want, joined)
		}
	}
	for _, s := range flow.Steps {
		if err := s.Validate(); err != nil {
			t.Errorf("step %d no longer fits the schema: %v", s.Seq, err)
		}
	}
}

// TestResolveBoxStates: a tool's explicit check stays as written; plain
// clicks toggle from the state the page shows, click after click.
func TestResolveBoxStates(t *testing.T) {
	checked := newsletter
	checked.State = "true"
	for _, tc := range []struct {
		name  string
		page  Element
		cmds  []string // Selenium commands on the box
		wants []string
	}{
		{"clicks on an unchecked box", newsletter, []string{"click", "click", "click"}, []string{"true", "false", "true"}},
		{"a click on a checked box", checked, []string{"click"}, []string{"false"}},
		{"check and uncheck as written", checked, []string{"check", "uncheck", "click"}, []string{"true", "false", "true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newFlowBuilder(FormatSide, "t")
			b.navigate("http://site.test/new")
			tg := &target{}
			tg.add(events.StrategyID, "#newsletter")
			for i, c := range tc.cmds {
				state := map[string]string{"check": "true", "uncheck": "false"}[c]
				if c == "click" {
					tg.role = "" // Selenium IDE's click names no role
				}
				b.click(tg, state, i+2)
			}
			f, err := b.done()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Resolve(context.Background(), f, &fakePage{els: []Element{tc.page}}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range f.Steps[1:] {
				got = append(got, s.Value.Raw)
			}
			if strings.Join(got, " ") != strings.Join(tc.wants, " ") {
				t.Errorf("box states %q; want %q", got, tc.wants)
			}
		})
	}
}

// TestResolveRadioAndUnreachable: a click on a radio button is the choice
// of its group; a page that does not open and the steps after a submit
// are left as written, each with a note.
func TestResolveRadioAndUnreachable(t *testing.T) {
	radio := Element{Kind: "choice", How: "radio", Role: "radiogroup", Label: "Tier", Member: "Growth",
		Selectors: []events.Selector{{Strategy: events.StrategyName, Value: "tier"}},
		Options:   []events.Option{{Label: "Starter", Value: "s"}, {Label: "Growth", Value: "g"}}}
	b := newFlowBuilder(FormatSide, "t")
	b.navigate("http://site.test/a")
	growth := &target{}
	growth.add(events.StrategyID, "#tier-g")
	growth.add(events.StrategyName, "tier")
	b.click(growth, "", 2)
	save := &target{}
	save.add(events.StrategyCSS, "button")
	b.submit(save)
	after := &target{}
	after.add(events.StrategyID, "#email")
	b.fill(after, "x@example.test", 4)
	b.navigate("http://down.test/")
	b.fill(after, "y@example.test", 6)
	f, err := b.done()
	if err != nil {
		t.Fatal(err)
	}
	notes, err := Resolve(context.Background(), f, &fakePage{els: []Element{radio, email}, fail: "http://down.test/"})
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Steps[1]; s.Action != events.ActionSelect || s.Value.Raw != "Growth" || s.Enrichment.Role != "radiogroup" || s.Enrichment.Label != "Tier" ||
		!reflect.DeepEqual(s.Enrichment.Selectors, radio.Selectors) {
		t.Errorf("the radio click = %s %+v on %q %q %v; want the select of Growth in its group, found as the group", s.Action, s.Value, s.Enrichment.Role, s.Enrichment.Label, s.Enrichment.Selectors)
	}
	if s := f.Steps[3]; s.Enrichment.Label != "" {
		t.Errorf("a step after the submit was resolved: %+v", s.Enrichment)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"step 4: not resolved: on a page the flow reaches by a submit", "step 6: not resolved: the page of step 5 did not open", "step 2: a click on a radio button"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes do not say %q:\n%s", want, joined)
		}
	}
}

func importTestFile(t *testing.T, folder, name string) []Flow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", folder, name))
	if err != nil {
		t.Fatal(err)
	}
	fs, err := Import([]byte(strings.ReplaceAll(string(b), "{{base}}", "http://site.test")))
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// stepOn is the flow's step whose selectors name value.
func stepOn(t *testing.T, f Flow, value string) events.Step {
	t.Helper()
	for _, s := range f.Steps {
		if s.Enrichment == nil {
			continue
		}
		for _, sel := range s.Enrichment.Selectors {
			if sel.Value == value {
				return s
			}
		}
	}
	t.Fatalf("no step on %s", value)
	return events.Step{}
}

// TestResolveListOption: a click on an option of a list shown on the page
// is the choice of the list, found as the list; an option of a list that
// holds a set stays a click, as a person's click toggles it.
func TestResolveListOption(t *testing.T) {
	for _, multiple := range []bool{false, true} {
		office := Element{Kind: "choice", How: "listbox", Role: "listbox", Label: "Office", Member: "Zürich", Multiple: multiple,
			Selectors: []events.Selector{{Strategy: events.StrategyLabel, Value: "Office"}},
			Options:   []events.Option{{Label: "Amsterdam"}, {Label: "Zürich"}}}
		b := newFlowBuilder(FormatChromeRecorder, "t")
		b.navigate("http://site.test/a")
		zurich := &target{}
		zurich.add(events.StrategyLabel, "Zürich")
		b.click(zurich, "", 2)
		f, err := b.done()
		if err != nil {
			t.Fatal(err)
		}
		page := &fakePage{els: []Element{office}}
		page.els[0].Selectors = append(page.els[0].Selectors, events.Selector{Strategy: events.StrategyLabel, Value: "Zürich"})
		if _, err := Resolve(context.Background(), f, page); err != nil {
			t.Fatal(err)
		}
		s := f.Steps[1]
		if multiple {
			if s.Action != events.ActionClick {
				t.Errorf("a click on an option of a set = %s; want it left a click", s.Action)
			}
			continue
		}
		if s.Action != events.ActionSelect || s.Value.Raw != "Zürich" || s.Enrichment.Label != "Office" || s.Enrichment.Role != "listbox" {
			t.Errorf("a click on an option = %s %+v on %q %q; want the select of Zürich in the list Office", s.Action, s.Value, s.Enrichment.Role, s.Enrichment.Label)
		}
	}
}
