package uia

import (
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

func TestControlTypeName(t *testing.T) {
	for _, tc := range []struct {
		id   int32
		want string
	}{
		{ButtonControlTypeID, "Button"}, {CheckBoxControlTypeID, "CheckBox"}, {EditControlTypeID, "Edit"},
		{HyperlinkControlTypeID, "Hyperlink"}, {ListItemControlTypeID, "ListItem"}, {ListControlTypeID, "List"},
		{MenuItemControlTypeID, "MenuItem"}, {RadioButtonControlTypeID, "RadioButton"}, {TabItemControlTypeID, "TabItem"},
		{TextControlTypeID, "Text"}, {DocumentControlTypeID, "Document"}, {WindowControlTypeID, "Window"},
		{PaneControlTypeID, "Pane"}, {HeaderItemControlTypeID, "HeaderItem"}, {SemanticZoomControlTypeID, "SemanticZoom"},
		{AppBarControlTypeID, "AppBar"}, {50041, "ControlType50041"}, {0, "ControlType0"}, {49999, "ControlType49999"},
	} {
		if got := ControlTypeName(tc.id); got != tc.want {
			t.Errorf("ControlTypeName(%d) = %q; want %q", tc.id, got, tc.want)
		}
	}
	if n := len(controlTypes); n != AppBarControlTypeID-ButtonControlTypeID+1 {
		t.Errorf("the table has %d control types; want %d", n, AppBarControlTypeID-ButtonControlTypeID+1)
	}
	seen := map[string]bool{}
	for _, ct := range controlTypes {
		if seen[ct.name] || ct.name == SegmentPassword || strings.ContainsAny(ct.name, `\/[]# `) {
			t.Errorf("control type name %q is repeated or unfit for a path segment", ct.name)
		}
		seen[ct.name] = true
	}
}

func TestSegmentRoleAndRole(t *testing.T) {
	for _, tc := range []struct {
		ct       int32
		password bool
		seg      string
		role     string
	}{
		{ButtonControlTypeID, false, "Button", "button"},
		{SplitButtonControlTypeID, false, "SplitButton", "button"},
		{EditControlTypeID, false, "Edit", "textbox"},
		{EditControlTypeID, true, "PasswordEdit", "textbox"},
		{CustomControlTypeID, true, "PasswordEdit", "textbox"},
		{CheckBoxControlTypeID, false, "CheckBox", "checkbox"},
		{RadioButtonControlTypeID, false, "RadioButton", "radio"},
		{ComboBoxControlTypeID, false, "ComboBox", "combobox"},
		{HyperlinkControlTypeID, false, "Hyperlink", "link"},
		{MenuItemControlTypeID, false, "MenuItem", "menuitem"},
		{TextControlTypeID, false, "Text", "text"},
		{WindowControlTypeID, false, "Window", "window"},
		{ListControlTypeID, false, "List", "list"},
		{ListItemControlTypeID, false, "ListItem", "listitem"},
		{TabControlTypeID, false, "Tab", "tablist"},
		{TabItemControlTypeID, false, "TabItem", "tab"},
		{PaneControlTypeID, false, "Pane", "group"},
		{DocumentControlTypeID, false, "Document", "document"},
		{50077, false, "ControlType50077", "controltype50077"},
	} {
		seg := SegmentRole(tc.ct, tc.password)
		if seg != tc.seg {
			t.Errorf("SegmentRole(%d, %v) = %q; want %q", tc.ct, tc.password, seg, tc.seg)
		}
		if r := Role(seg); r != tc.role {
			t.Errorf("Role(%q) = %q; want %q", seg, r, tc.role)
		}
	}
	if r := roleOf("Window", "#32770"); r != "dialog" {
		t.Errorf(`roleOf("Window", "#32770") = %q; want "dialog"`, r)
	}
	if r := roleOf("Pane", "#32770"); r != "group" {
		t.Errorf(`roleOf("Pane", "#32770") = %q; want "group"`, r)
	}
	if r := roleOf("Window", "Notepad"); r != "window" {
		t.Errorf(`roleOf("Window", "Notepad") = %q; want "window"`, r)
	}
}

func TestEnrichmentAndIsPassword(t *testing.T) {
	nodes := []axpath.Node{{Role: "Window", Name: "Sign in"}, {Role: "Pane"}, {Role: SegmentPassword, Name: "Password"}}
	e := enrichment(nodes, "textbox", "Password", "1002")
	if e.Kind != events.KindAX || e.Role != "textbox" || e.Label != "Password" ||
		*e.AXPath != "Window[Sign in]/Pane/PasswordEdit[Password]" {
		t.Fatalf("enrichment = %+v", e)
	}
	if len(e.Selectors) != 1 || e.Selectors[0] != (events.Selector{Strategy: events.StrategyID, Value: "1002"}) {
		t.Errorf("selectors = %+v; want the AutomationId as an id selector", e.Selectors)
	}
	if !IsPassword(e) {
		t.Error("IsPassword = false for a PasswordEdit")
	}
	step := events.Step{Actor: events.ActorHuman, Action: events.ActionFill, Outcome: events.OutcomeOK,
		Cursor: []int{1, 2}, Enrichment: e}
	if err := step.Validate(); err != nil {
		t.Errorf("a step with the enrichment does not validate: %v", err)
	}

	plain := enrichment([]axpath.Node{{Role: "Window", Name: "PasswordEdit"}, {Role: "Edit", Name: "PasswordEdit"}}, "textbox", "", "")
	if IsPassword(plain) || IsPassword(nil) {
		t.Error("an Edit named like a password field is no password field")
	}
	if plain.Selectors == nil || len(plain.Selectors) != 0 {
		t.Errorf("selectors = %#v; want empty, not nil (the wire schema has a list)", plain.Selectors)
	}
	if enrichment(nil, "", "", "x") != nil {
		t.Error("no nodes, no enrichment")
	}
	if !(Element{AXPath: "Window[a]/PasswordEdit#2"}).IsPassword() || (Element{AXPath: "Window[a]/Edit[PasswordEdit]"}).IsPassword() {
		t.Error("Element.IsPassword reads the wrong segment")
	}
}

func TestPatternFor(t *testing.T) {
	for _, tc := range []struct {
		action, role string
		want         Pattern
		ok           bool
	}{
		{events.ActionClick, "button", InvokePattern, true},
		{events.ActionClick, "link", InvokePattern, true},
		{events.ActionClick, "menuitem", InvokePattern, true},
		{events.ActionSubmit, "button", InvokePattern, true},
		{events.ActionFill, "textbox", ValuePattern, true},
		{events.ActionFill, "combobox", ValuePattern, true},
		{events.ActionFill, "", ValuePattern, true},
		{events.ActionClick, "checkbox", TogglePattern, true},
		{events.ActionClick, "radio", SelectionItemPattern, true},
		{events.ActionClick, "listitem", SelectionItemPattern, true},
		{events.ActionClick, "tab", SelectionItemPattern, true},
		{events.ActionSelect, "listitem", SelectionItemPattern, true},
		{events.ActionClick, "combobox", ExpandCollapsePattern, true},
		{events.ActionSelect, "combobox", ExpandCollapsePattern, true},
		{events.ActionClick, "textbox", 0, false},
		{events.ActionNavigate, "button", 0, false},
		{events.ActionWait, "", 0, false},
	} {
		got, ok := PatternFor(tc.action, tc.role)
		if got != tc.want || ok != tc.ok {
			t.Errorf("PatternFor(%q, %q) = %v, %v; want %v, %v", tc.action, tc.role, got, ok, tc.want, tc.ok)
		}
	}
	for p, want := range map[Pattern]string{InvokePattern: "Invoke", ValuePattern: "Value",
		ExpandCollapsePattern: "ExpandCollapse", SelectionItemPattern: "SelectionItem", TogglePattern: "Toggle", 10001: "Pattern(10001)"} {
		if got := p.String(); got != want {
			t.Errorf("Pattern(%d).String() = %q; want %q", int32(p), got, want)
		}
	}
}

func TestRefuseHigher(t *testing.T) {
	for _, tc := range []struct {
		ours, theirs Integrity
		refuse       bool
	}{
		{Medium, Medium, false}, {Medium, Low, false}, {High, Medium, false}, {Medium, MediumPlus, true},
		{Medium, High, true}, {High, System, true}, {Untrusted, Low, true}, {System, System, false},
	} {
		err := RefuseHigher(tc.ours, tc.theirs, "regedit.exe")
		if (err != nil) != tc.refuse {
			t.Errorf("RefuseHigher(%v, %v) = %v; want refusal %v", tc.ours, tc.theirs, err, tc.refuse)
		}
		if err != nil && (!strings.Contains(err.Error(), "regedit.exe") || !strings.Contains(err.Error(), tc.theirs.String())) {
			t.Errorf("RefuseHigher(%v, %v) = %q; want it to name the app and its level", tc.ours, tc.theirs, err)
		}
	}
	if err := RefuseHigher(Medium, High, ""); err == nil || !strings.Contains(err.Error(), "the target app") {
		t.Errorf("RefuseHigher without an app name = %v", err)
	}
	if s := Integrity(0x2500).String(); s != "integrity 0x2500" {
		t.Errorf("Integrity(0x2500).String() = %q", s)
	}
}

func TestToggleValue(t *testing.T) {
	for st, want := range map[int32]string{0: "unchecked", 1: "checked", 2: "mixed", 7: "mixed"} {
		if got := ToggleValue(st); got != want {
			t.Errorf("ToggleValue(%d) = %q; want %q", st, got, want)
		}
	}
}

func TestHRESULT(t *testing.T) {
	for hr, want := range map[HRESULT]string{
		ENotImpl:            "HRESULT 0x80004001 (E_NOTIMPL)",
		ElementNotAvailable: "HRESULT 0x80040201 (UIA_E_ELEMENTNOTAVAILABLE)",
		0x80001234:          "HRESULT 0x80001234",
	} {
		if got := hr.Error(); got != want {
			t.Errorf("HRESULT(%#x).Error() = %q; want %q", uint32(hr), got, want)
		}
	}
	var err error = HRESULT(0x80004001)
	if !errors.Is(err, ENotImpl) {
		t.Error("errors.Is(E_NOTIMPL, ENotImpl) = false")
	}
}
