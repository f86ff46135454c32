package selector

import (
	"errors"
	"image"
	"slices"
	"strings"
	"testing"
)

// form is a window of a desktop app or a page: two groups that each hold a
// "Name" field (so the name repeats), labels linked and unlinked, buttons
// in a row, and an id.
func form() Tree {
	r := image.Rect
	return Tree{
		{Role: "window", Name: "New customer", Parent: -1, Label: -1, Bounds: r(0, 0, 800, 600), Window: "New customer - Acme", App: "acme.exe"},
		{Role: "group", Name: "Billing", Parent: 0, Label: -1, Bounds: r(10, 10, 390, 200)},
		{Role: "text", Name: "Name:", Parent: 1, Label: -1, Bounds: r(20, 40, 80, 60)},
		{Role: "text_field", Name: "Name", Parent: 1, Label: 2, Bounds: r(90, 40, 380, 60)},
		{Role: "group", Name: "Shipping", Parent: 0, Label: -1, Bounds: r(410, 10, 790, 200)},
		{Role: "text", Name: "Ｎａｍｅ：", Parent: 4, Label: -1, Bounds: r(420, 40, 480, 60)},
		{Role: "text_field", Name: "", Parent: 4, Label: -1, Bounds: r(490, 40, 780, 60)},
		{Role: "text", Name: "City", Parent: 4, Label: -1, Bounds: r(420, 80, 480, 100)},
		{Role: "text_field", Name: "", Parent: 4, Label: -1, Bounds: r(420, 110, 780, 130)},
		{Role: "button", Name: "Save", ID: "save", Parent: 0, Label: -1, Bounds: r(500, 540, 580, 570)},
		{Role: "button", Name: "Cancel", Parent: 0, Label: -1, Bounds: r(600, 542, 680, 572)},
		{Role: "button", Name: "Help", Parent: 0, Label: -1, Bounds: r(20, 541, 100, 571)},
		{Role: "button", Name: "Save  draft", Parent: 0, Label: -1, Bounds: r(20, 580, 120, 598)},
	}
}

func nth(n int) *int { return &n }

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		sel  Selector
		want int    // the index, or -1
		code string // the miss's code when want is -1
	}{
		{"role and name", Selector{Role: "button", Name: "Cancel"}, 10, ""},
		{"name collapses whitespace", Selector{Role: "button", Name: "Save draft"}, 12, ""},
		{"name glob", Selector{Role: "button", Name: "Can*"}, 10, ""},
		{"a name compares as a label, without a trailing colon", Selector{Role: "text", Name: "City:"}, 7, ""},
		{"name is whole, not part", Selector{Role: "button", Name: "Canc"}, -1, CodeNotFound},
		{"two match: a miss, never a guess", Selector{Role: "button", Name: "Save*"}, -1, CodeAmbiguous},
		{"role must agree", Selector{Role: "link", Name: "Cancel"}, -1, CodeNotFound},
		{"id wins when unique", Selector{Role: "button", Name: "Whatever", ID: "save"}, 9, ""},
		{"an id that matches nothing is a miss whatever the name", Selector{Role: "button", Name: "Cancel", ID: "nope"}, -1, CodeNotFound},
		{"ids compare as written", Selector{Role: "button", ID: "SAVE"}, -1, CodeNotFound},
		{"in narrows to the container", Selector{Role: "text_field", Name: "Name", In: &Selector{Role: "group", Name: "Billing"}}, 3, ""},
		{"the container must match exactly one", Selector{Role: "text_field", Name: "Name", In: &Selector{Role: "group", Name: "*"}}, -1, CodeAmbiguous},
		{"near a linked label", Selector{Role: "text_field", Near: &Near{Label: "Name", Side: "right"}}, 3, ""},
		{"near by position, full-width label with colon", Selector{Role: "text_field", Near: &Near{Label: "Name", Side: "right"}, In: &Selector{Role: "group", Name: "Shipping"}}, 6, ""},
		{"near below", Selector{Role: "text_field", Near: &Near{Label: "City", Side: "below"}}, 8, ""},
		{"near on a side with nothing there", Selector{Role: "text_field", Near: &Near{Label: "City", Side: "above"}}, -1, CodeNotFound},
		{"nth in reading order: a row, left to right", Selector{Role: "button", Name: "*", Nth: nth(0)}, 11, ""},
		{"nth 1 is the next in the row", Selector{Role: "button", Name: "*", Nth: nth(1)}, 9, ""},
		{"nth 3 starts the next row", Selector{Role: "button", Name: "*", Nth: nth(3)}, 12, ""},
		{"nth past the end", Selector{Role: "button", Name: "*", Nth: nth(4)}, -1, CodeNotFound},
		{"app ignores case and extension", Selector{Role: "window", Name: "New customer", App: "ACME"}, 0, ""},
		{"another app", Selector{Role: "window", Name: "New customer", App: "notepad"}, -1, CodeNotFound},
		{"window title contains", Selector{Role: "window", Name: "*", Window: "customer - *"}, 0, ""},
	} {
		got, err := Match(tc.sel, form())
		if tc.want >= 0 {
			if err != nil || got != tc.want {
				t.Errorf("%s: Match(%s) = %d, %v; want %d", tc.name, tc.sel, got, err, tc.want)
			}
			continue
		}
		var m *Miss
		if !errors.As(err, &m) || m.Code != tc.code || got != -1 {
			t.Errorf("%s: Match(%s) = %d, %v; want a %s miss", tc.name, tc.sel, got, err, tc.code)
		}
	}
}

func TestAmbiguousMissListsTheMatches(t *testing.T) {
	_, err := Match(Selector{Role: "button", Name: "Save*"}, form())
	var m *Miss
	if !errors.As(err, &m) || len(m.Matches) != 2 || !strings.Contains(m.Error(), "2 elements match") {
		t.Fatalf("Match = %v; want an ambiguous miss listing both", err)
	}
}

func TestMalformedTreeEndsTheWalk(t *testing.T) {
	tree := Tree{
		{Role: "group", Name: "a", Parent: 1, Label: -1},
		{Role: "group", Name: "b", Parent: 0, Label: -1},
		{Role: "button", Name: "x", Parent: 1, Label: 99},
	}
	// a and b are each other's parent: the walk up from x goes x, b, a and
	// stops there, where a parent would come after its child.
	if got, err := Match(Selector{Role: "button", Name: "x", In: &Selector{Role: "group", Name: "a"}}, tree); got != 2 || err != nil {
		t.Errorf("Match in a parent cycle = %d, %v; want x, found by the walk up", got, err)
	}
	if _, err := Match(Selector{Role: "group", Name: "a", In: &Selector{Role: "group", Name: "b"}}, tree); err == nil {
		t.Error("a, whose parent b comes after it, matched inside b")
	}
	if got, err := Match(Selector{Role: "button", Near: &Near{Label: "a", Side: "right"}}, tree); err == nil {
		t.Errorf("a label index out of range matched %d", got)
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, err string
	}{
		{`{"role": "button", "name": "Save"}`, ""},
		{"role: text_field\nnear: {label: Name, side: right}\nin: {role: group, name: Billing}\nnth: 0\n", ""},
		{`{"role": "button", "name": "Save", "colour": "red"}`, "line 1: field colour not found"},
		{"role: button\nname: Save\ncolour: red\n", "line 3: field colour not found"},
		{`{"role": "knob", "name": "x"}`, `role "knob" is not one of`},
		{`{"role": "button"}`, "at least one of name, id or near"},
		{`{"role": "button", "near": {"label": "x", "side": "behind"}}`, `near side "behind"`},
		{`{"role": "button", "near": {"side": "left"}}`, "near needs a label"},
		{`{"role": "button", "name": "x", "nth": -1}`, "nth -1 is negative"},
		{`{"role": "button", "name": "x", "in": {"role": "group"}}`, "in: selector: give at least one"},
		{`{"role": "button", "name": ["x"]}`, "cannot unmarshal"},
		{"role: button\nname: a\n---\nrole: button\nname: b\n", "more than one document"},
		{"", "EOF"},
		{`{`, "selector:"},
	} {
		_, err := Parse([]byte(tc.in))
		if tc.err == "" {
			if err != nil {
				t.Errorf("Parse(%q) = %v; want ok", tc.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Parse(%q) = %v; want an error containing %q", tc.in, err, tc.err)
		}
	}
	deep := `{"role": "button", "name": "x"}`
	for range maxDepth + 1 {
		deep = `{"role": "group", "name": "g", "in": ` + deep + `}`
	}
	if _, err := Parse([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("Parse(deep) = %v; want refused", err)
	}
}

func TestFill(t *testing.T) {
	s := Selector{Role: "text_field", Name: "%field%", ID: "%id%", Window: "Order %order%",
		Near: &Near{Label: "%label%", Side: "right"}, In: &Selector{Role: "group", Name: "%group%"}}
	got, err := s.Fill(map[string]string{"field": "Name", "order": "42", "label": "Name:", "group": "Billing", "id": "x"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Name" || got.ID != "%id%" || got.Window != "Order 42" || got.Near.Label != "Name:" || got.In.Name != "Billing" {
		t.Errorf("Fill = %s; want every placeholder but the id's filled", got)
	}
	if s.Near.Label != "%label%" || s.In.Name != "%group%" {
		t.Error("Fill changed the selector it was called on")
	}
	if _, err := s.Fill(map[string]string{"field": "Name"}); err == nil || !strings.Contains(err.Error(), "order, label, group") {
		t.Errorf("Fill with values missing = %v; want an error naming them", err)
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"  First\t\tname ": "First name",
		"ＡＢＣ　１２３":          "ABC 123",
		"Name:":            "Name:",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q; want %q", in, got, want)
		}
	}
	if got := NormalizeLabel("Ｎａｍｅ："); got != "Name" {
		t.Errorf("NormalizeLabel(full-width Name:) = %q; want Name", got)
	}
}

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		whole, want   bool
	}{
		{"Save", "Save", true, true},
		{"Save", "Save draft", true, false},
		{"Save", "Save draft", false, true},
		{"S*e", "Save", true, true},
		{"*draft", "Save draft", true, true},
		{"a*b*c", "a1b2c", true, true},
		{"a*b*c", "a1c2b", true, false},
		{"ab*ba", "aba", true, false},
		{"*", "", true, true},
		{"customer - *", "New customer - Acme", false, true},
	} {
		if got := glob(tc.pattern, tc.text, tc.whole); got != tc.want {
			t.Errorf("glob(%q, %q, whole %v) = %v; want %v", tc.pattern, tc.text, tc.whole, got, tc.want)
		}
	}
}

func TestRoleOf(t *testing.T) {
	for in, want := range map[string]string{
		"button": "button", "textbox": "text_field", "TextBox": "text_field", "combobox": "combo_box",
		"checkbox": "checkbox", "menuitem": "menu_item", "dialog": "window", "table": "list",
		"gridcell": "cell", "option": "list_item", "img": "other", "": "other",
	} {
		if got := RoleOf(in); got != want {
			t.Errorf("RoleOf(%q) = %q; want %q", in, got, want)
		}
	}
	for _, r := range ariaRoles {
		if !strings.Contains(strings.Join(Roles, " "), r) {
			t.Errorf("a recorded role maps to %q, which is no selector role", r)
		}
	}
}

func TestNamed(t *testing.T) {
	roles, all := Named(Selector{Role: "text_field", Near: &Near{Label: "City", Side: "right"}, In: &Selector{Role: "group", Name: "Billing"}})
	if all {
		t.Fatal("Named says every role, for a selector of known roles")
	}
	for _, want := range []string{"textbox", "searchbox", "group", "label", "statictext"} {
		if !slices.Contains(roles, want) {
			t.Errorf("Named = %v; want it to hold %s", roles, want)
		}
	}
	if slices.Contains(roles, "button") {
		t.Errorf("Named = %v; a button is no part of this selector", roles)
	}
	if _, all := Named(Selector{Role: "other", Name: "x"}); !all {
		t.Error("a selector for other: Named must read every name")
	}
}
