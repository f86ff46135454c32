package skills

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// base is a small valid skill; the error cases below change one line of it,
// so the line numbers in their errors are easy to check by eye.
const base = `version: 1
name: new customer
parameters:
  - name: first_name
    column: First Name
    type: text
dedupe_key: [first_name]
steps:
  - action: navigate
    value: https://app.example.test/new
  - action: fill
    selectors:
      - {strategy: id, value: '#first_name'}
    label: First Name
    value: '%first_name%'
    read_back: {kind: value, expect: '%first_name%'}
  - action: submit
    destructive: true
    assert: {kind: url_changed, timeout: 10s}
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, old, new, want string
	}{
		{"malformed yaml", "    label: First Name\n", "    label: First Name\n     role: textbox\n",
			"line 15: malformed YAML: mapping values are not allowed in this context"},
		{"unknown field", "    label: First Name\n", "    colour: blue\n",
			"line 14: steps[1].colour: unknown field; known fields are action, target, selectors, ax_path, role, label, url, value, options, multiple, half, keys, secret, floor, read_back, wait, destructive, assert, echo, expect, when, prompt, as, timeout, dialog, output, if, ai, recorded"},
		{"unknown top field", "name: new customer\n", "nmae: new customer\n",
			"line 2: nmae: unknown field; known fields are version, name, source_recordings, parameters, dedupe_key, ignore, ai, browser, steps, verify"},
		{"skill ai", "name: new customer\n", "name: new customer\nai: sometimes\n",
			`line 3: ai: "sometimes" is not how much AI decides: never, on_miss or every_run`},
		{"step ai", "    label: First Name\n", "    ai: always\n",
			`line 14: steps[1].ai: "always" is not how much AI decides: never, on_miss or every_run`},
		{"pin of two kinds", "    label: First Name\n", "    recorded:\n      linux:\n        - {click: {role: button, name: Go}, wait: 1s}\n",
			"line 16: steps[1].recorded.linux[0]: a pinned step is exactly one of click, type, key, scroll or wait"},
		{"pin without a selector's role", "    label: First Name\n", "    recorded:\n      windows:\n        - click: {name: Go}\n",
			`line 16: steps[1].recorded.windows[0].click: role "" is not one of button, text_field, text, checkbox, radio, combo_box, list_item, menu_item, tab, link, cell, list, group, window, other`},
		{"pin types an undeclared placeholder", "    label: First Name\n", "    recorded:\n      macos:\n        - type: {into: {role: text_field, name: Email}, text: '%mail%'}\n",
			"line 16: steps[1].recorded.macos[0].type.text: placeholder %mail% names no declared parameter"},
		{"pin waits too long", "    label: First Name\n", "    recorded:\n      linux:\n        - wait: 2h\n",
			"line 16: steps[1].recorded.linux[0].wait: a duration from 1ms to 1m, such as 500ms"},
		{"pin focus without a key", "    label: First Name\n", "    recorded:\n      linux:\n        - {click: {role: button, name: Go}, focus: {role: button, name: Go}}\n",
			"line 16: steps[1].recorded.linux[0].focus: only a key takes focus"},
		{"pin scrolls by nothing", "    label: First Name\n", "    recorded:\n      linux:\n        - scroll: {on: {role: list, name: Items}, dy: 0}\n",
			"line 16: steps[1].recorded.linux[0].scroll.dy: scrolls by a number of notches, not 0"},
		{"unknown action", "  - action: submit\n", "  - action: fly\n",
			`line 17: steps[2].action: unknown action "fly"`},
		{"undeclared placeholder", "    value: '%first_name%'\n", "    value: '%last_name%'\n",
			"line 15: steps[1].value: placeholder %last_name% names no declared parameter"},
		{"bad percent", "    value: '%first_name%'\n", "    value: '50% off'\n",
			`line 15: steps[1].value: a "%" must open a %name% placeholder (snake_case name) or be doubled as "%%" for a literal percent sign`},
		{"unknown strategy", "{strategy: id,", "{strategy: aria,",
			`line 13: steps[1].selectors[0].strategy: unknown strategy "aria" (id, name, label, role+text, css, xpath)`},
		{"version", "version: 1\n", "version: 2\n",
			"line 1: version: version 2 is not supported; this build reads version 1"},
		{"version not a number", "version: 1\n", "version: one\n",
			"line 1: version: want a whole number"},
		{"name not snake", "  - name: first_name\n", "  - name: First Name\n",
			`line 4: parameters[0].name: "First Name" is not a snake_case name such as first_name`},
		{"dedupe unknown", "dedupe_key: [first_name]\n", "dedupe_key: [email]\n",
			`line 7: dedupe_key[0]: "email" is not a declared parameter`},
		{"secret type", "    type: text\n", "    type: secret\n",
			`line 6: parameters[0].type: "secret" is not a parameter type (text, email, number, date, enum, boolean, file, list)`},
		{"destructive fill", "    label: First Name\n", "    label: First Name\n    destructive: true\n",
			"line 15: steps[1].destructive: only a submit or click step can be destructive, not fill"},
		{"secret with value", "    label: First Name\n", "    label: First Name\n    secret: true\n",
			"line 16: steps[1].value: a secret step carries no value and no read-back: the person types it at replay"},
		{"unused parameter", "    value: '%first_name%'\n    read_back: {kind: value, expect: '%first_name%'}\n", "    value: Ada\n",
			"line 4: parameters[0].name: parameter first_name is used by no step: remove it or use %first_name%"},
		{"duplicate field", "    label: First Name\n", "    label: First Name\n    label: Given Name\n",
			"line 15: steps[1].label: field given twice"},
		{"bad timeout", "timeout: 10s", "timeout: soon",
			"line 19: steps[2].assert[0].timeout: must be a positive duration such as 10s"},
		{"list for text", "name: new customer\n", "name: [a, b]\n",
			"line 2: name: want a single value, not a list or mapping"},
		{"alias", "name: new customer\n", "name: &n new customer\n",
			"line 2: name: anchors and aliases are not supported in a skill; write the value out"},
		{"javascript url", "value: https://app.example.test/new", "value: 'javascript:alert(1)'",
			"line 10: steps[0].value: a javascript: URL; replay opens only http and https pages"},
		{"file url", "value: https://app.example.test/new", "value: file:///etc/passwd",
			"line 10: steps[0].value: a file: URL; replay opens only http and https pages"},
		{"templated javascript url", "value: https://app.example.test/new", "value: 'JavaScript:%first_name%'",
			"line 10: steps[0].value: a javascript: URL; replay opens only http and https pages"},
		{"url without scheme", "value: https://app.example.test/new", "value: app.example.test/new",
			"line 10: steps[0].value: no scheme: write it with http:// or https://"},
		{"placeholder in selector", "{strategy: id, value: '#first_name'}", "{strategy: id, value: '#%first_name%'}",
			"line 13: steps[1].selectors[0].value: holds the placeholder %first_name%: a selector is matched as written, never filled from a row"},
		{"target unknown key", "    label: First Name\n", "    label: First Name\n    target: {role: text_field, name: First Name, colour: red}\n",
			"line 15: steps[1].target.colour: unknown field; known fields are role, name, id, app, window, in, near, nth"},
		{"target bad role", "    label: First Name\n", "    label: First Name\n    target: {role: knob, name: First Name}\n",
			`line 15: steps[1].target: role "knob" is not one of button, text_field, text, checkbox, radio, combo_box, list_item, menu_item, tab, link, cell, list, group, window, other`},
		{"target undeclared placeholder", "    label: First Name\n", "    label: First Name\n    target: {role: text_field, name: '%nickname%'}\n",
			"line 15: steps[1].target: holds %nickname%, which is no parameter of the skill"},
		{"target in without a name", "    label: First Name\n", "    label: First Name\n    target: {role: text_field, name: First Name, in: {role: group}}\n",
			"line 15: steps[1].target: in: selector: give at least one of name, id or near besides the role"},
		{"expect with two things", "  - action: submit\n", "  - expect: {text: Saved, window: Acme}\n  - action: submit\n",
			"line 17: steps[2].expect: give exactly one of text, element or window"},
		{"expect bad within", "  - action: submit\n", "  - expect: {text: Saved, within: soon}\n  - action: submit\n",
			"line 17: steps[2].expect.within: must be a positive duration such as 5s"},
		{"expect on a fill", "    label: First Name\n", "    label: First Name\n    expect: {text: Saved}\n",
			"line 15: steps[1].expect: an expect is a step of its own: put it after this fill step"},
		{"expect element unknown key", "  - action: submit\n", "  - expect: {element: {role: button, name: Save, colour: red}}\n  - action: submit\n",
			"line 17: steps[2].expect.element.colour: unknown field; known fields are role, name, id, app, window, in, near, nth"},
		{"expect undeclared placeholder", "  - action: submit\n", "  - expect: {text: '%nickname%'}\n  - action: submit\n",
			"line 17: steps[2].expect.text: placeholder %nickname% names no declared parameter"},
		{"when on the filing step", "    destructive: true\n", "    destructive: true\n    when: {window: Acme}\n",
			"line 19: steps[2].when: a step that files the row cannot be skipped by a when"},
		{"no steps", base[strings.Index(base, "steps:"):], "steps: []\n",
			"line 8: steps: a skill needs at least one step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !strings.Contains(base, tt.old) {
				t.Fatalf("base has no %q", tt.old)
			}
			doc := strings.Replace(base, tt.old, tt.new, 1)
			_, err := Parse([]byte(doc))
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse(%s) = %v; want %s", tt.name, err, tt.want)
			}
			var e *Error
			if err != nil && !errors.As(err, &e) {
				t.Errorf("Parse(%s) error is %T; want *Error", tt.name, err)
			}
		})
	}
}

func TestParseEmptyAndMulti(t *testing.T) {
	for _, doc := range []string{"", "# only a comment\n", base + "---\nversion: 1\n", "just text\n", "- a list\n"} {
		if _, err := Parse([]byte(doc)); err == nil {
			t.Errorf("Parse(%q) = nil error; want an error", doc)
		}
	}
}

func TestParseBase(t *testing.T) {
	s, err := Parse([]byte(base))
	if err != nil {
		t.Fatalf("Parse(base) = %v", err)
	}
	want := Step{Action: "fill", Selectors: []Selector{{"id", "#first_name"}}, Label: "First Name",
		Value: "%first_name%", ReadBack: &ReadBack{Kind: "value", Expect: "%first_name%"}}
	if !reflect.DeepEqual(s.Steps[1], want) {
		t.Errorf("Parse(base).Steps[1] = %+v; want %+v", s.Steps[1], want)
	}
	roundTrip(t, s)
}

func TestRoundTripFiles(t *testing.T) {
	for _, f := range []string{"testdata/parse/valid.yaml", "testdata/parse/minimal.yaml", "testdata/parse/choices.yaml", "testdata/parse/browser.yaml"} {
		s, err := Parse(readFile(t, f))
		if err != nil {
			t.Fatalf("Parse(%s) = %v", f, err)
		}
		roundTrip(t, s)
		// Marshal is stable: what it writes is what the file says.
		if f != "testdata/parse/minimal.yaml" {
			y, _ := Marshal(s)
			if string(y) != string(readFile(t, f)) {
				t.Errorf("Marshal(Parse(%s)) differs from the file:\n%s", f, y)
			}
		}
	}
}

func TestPlaceholders(t *testing.T) {
	tests := []struct {
		in, want string
		names    []string
		bad      bool
	}{
		{in: "plain", want: "plain"},
		{in: "%first_name% %last_name%", want: "Ada Lovelace", names: []string{"first_name", "last_name"}},
		{in: "10%%", want: "10%"},
		{in: "%%first_name%%", want: "%first_name%"},
		{in: "/orders/%id%/edit", want: "/orders/7/edit", names: []string{"id"}},
		{in: "50% off", bad: true},
		{in: "%First%", bad: true},
		{in: "%", bad: true},
	}
	row := map[string]string{"first_name": "Ada", "last_name": "Lovelace", "id": "7"}
	for _, tt := range tests {
		names, err := Placeholders(tt.in)
		if (err != nil) != tt.bad || !reflect.DeepEqual(names, tt.names) {
			t.Errorf("Placeholders(%q) = %v, %v; want %v, bad %v", tt.in, names, err, tt.names, tt.bad)
		}
		if tt.bad {
			continue
		}
		if got, err := Expand(tt.in, row); err != nil || got != tt.want {
			t.Errorf("Expand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if got, _ := Expand(Literal(tt.want), nil); got != tt.want {
			t.Errorf("Expand(Literal(%q)) = %q; want it back", tt.want, got)
		}
	}
	if _, err := Expand("%missing%", row); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("Expand(%%missing%%) = %v; want an error naming the parameter", err)
	}
}

// TestMarshalInPartsIsWhole: Marshal, which hands the emitter the steps a
// few hundred at a time, writes the bytes of encoding the skill at once, for
// every skill in testdata, and every skill skills/learn's goldens hold, cut
// into parts of one, two and three steps.
func TestMarshalInPartsIsWhole(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*.yaml")
	nested, _ := filepath.Glob("testdata/*/*/*.yaml")
	learned, _ := filepath.Glob("learn/testdata/*/*/*.yaml")
	compared := 0
	for _, f := range slices.Concat(files, nested, learned) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(b)
		if err != nil || len(s.Steps) == 0 {
			continue // the parse cases that must fail
		}
		var whole bytes.Buffer
		if err := encodeYAML(&whole, s); err != nil {
			t.Fatal(err)
		}
		for chunk := 1; chunk <= 3; chunk++ {
			got, err := marshalInParts(s, chunk, 0)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if !bytes.Equal(got, whole.Bytes()) {
				t.Errorf("%s in parts of %d: differs from one encoding:\n%s", f, chunk, got)
			}
		}
		compared++
	}
	if compared < 10 {
		t.Fatalf("only %d skills in testdata to compare", compared)
	}
}

// TestTargetRoundTrip: a target a person edits by hand (a container, a
// label to sit beside, a name filled from the row) parses, validates and
// is written back the same.
func TestTargetRoundTrip(t *testing.T) {
	doc := strings.Replace(base, "    label: First Name\n",
		"    label: First Name\n    target: {role: text_field, name: '%first_name%*', in: {role: group, name: Billing}, near: {label: 'Name:', side: right}, nth: 0}\n", 1)
	s, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tg := s.Steps[1].Target
	if tg == nil || tg.In == nil || tg.In.Name != "Billing" || tg.Near == nil || tg.Near.Side != "right" || tg.Nth == nil || *tg.Nth != 0 {
		t.Fatalf("target = %+v; want every field read", tg)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(out)
	if err != nil {
		t.Fatalf("Parse(Marshal) = %v\n%s", err, out)
	}
	if got, want := again.Steps[1].Target.String(), tg.String(); got != want {
		t.Errorf("round trip = %s; want %s", got, want)
	}
	filled, err := tg.Fill(map[string]string{"first_name": "Ada"})
	if err != nil || filled.Name != "Ada*" {
		t.Errorf("Fill = %s, %v; want the row's value in the name", filled, err)
	}
}

// TestMarshalWithin: a skill that fits is written as Marshal writes it; one
// byte less room and it is refused with how far it got, not written.
func TestMarshalWithin(t *testing.T) {
	s, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	for len(s.Steps) < 3*marshalChunk {
		s.Steps = append(s.Steps, s.Steps...)
	}
	whole, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	got, err := MarshalWithin(s, len(whole))
	if err != nil || !bytes.Equal(got, whole) {
		t.Fatalf("MarshalWithin(%d bytes) = %d bytes, %v; want the %d of Marshal", len(whole), len(got), err, len(whole))
	}
	for _, room := range []int{len(whole) - 1, len(whole) / 2, 10} {
		got, err := MarshalWithin(s, room)
		tooBig, ok := errors.AsType[*TooBigError](err)
		if !ok || got != nil || tooBig.Max != room || !strings.HasPrefix(tooBig.Part, "its ") {
			t.Errorf("MarshalWithin(%d of %d bytes) = %d bytes, %v; want refused with the steps it got to", room, len(whole), len(got), err)
		}
	}
}
