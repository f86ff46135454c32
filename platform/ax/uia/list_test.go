package uia

import (
	"image"
	"testing"

	"github.com/reprise-dev/reprise/selector"
)

// TestSelectorRoles is the table of UIA control types and the selector
// roles they resolve as (selector.RoleOf of the role the package maps
// them to), so that a change to either mapping shows here.
func TestSelectorRoles(t *testing.T) {
	want := map[int32]string{
		ButtonControlTypeID: "button", CalendarControlTypeID: "list", CheckBoxControlTypeID: "checkbox",
		ComboBoxControlTypeID: "combo_box", EditControlTypeID: "text_field", HyperlinkControlTypeID: "link",
		ImageControlTypeID: "other", ListItemControlTypeID: "list_item", ListControlTypeID: "list",
		MenuControlTypeID: "other", MenuBarControlTypeID: "other", MenuItemControlTypeID: "menu_item",
		ProgressBarControlTypeID: "other", RadioButtonControlTypeID: "radio", ScrollBarControlTypeID: "other",
		SliderControlTypeID: "other", SpinnerControlTypeID: "text_field", StatusBarControlTypeID: "other",
		TabControlTypeID: "list", TabItemControlTypeID: "tab", TextControlTypeID: "text",
		ToolBarControlTypeID: "group", ToolTipControlTypeID: "other", TreeControlTypeID: "list",
		TreeItemControlTypeID: "list_item", CustomControlTypeID: "other", GroupControlTypeID: "group",
		ThumbControlTypeID: "other", DataGridControlTypeID: "list", DataItemControlTypeID: "list_item",
		DocumentControlTypeID: "other", SplitButtonControlTypeID: "button", WindowControlTypeID: "window",
		PaneControlTypeID: "group", HeaderControlTypeID: "other", HeaderItemControlTypeID: "cell",
		TableControlTypeID: "list", TitleBarControlTypeID: "other", SeparatorControlTypeID: "other",
		SemanticZoomControlTypeID: "list", AppBarControlTypeID: "group",
	}
	for id := int32(ButtonControlTypeID); id <= AppBarControlTypeID; id++ {
		seg := SegmentRole(id, false)
		if got := selector.RoleOf(roleOf(seg, "")); got != want[id] {
			t.Errorf("control type %s (%d) resolves as %q; want %q", seg, id, got, want[id])
		}
	}
	for _, tc := range []struct {
		seg, class, want string
	}{
		{"Window", dialogClass, "window"}, // a Win32 dialog box is a "dialog"
		{SegmentPassword, "Edit", "text_field"},
		{"ControlType50099", "", "other"},
	} {
		if got := selector.RoleOf(roleOf(tc.seg, tc.class)); got != tc.want {
			t.Errorf("%s of class %q resolves as %q; want %q", tc.seg, tc.class, got, tc.want)
		}
	}
}

// TestAssemble builds a listing from a walk as the cached read gives it:
// paths numbered among siblings, off-screen elements dropped with their
// children moved up, LabeledBy as an index, no password value, the limit.
func TestAssemble(t *testing.T) {
	r := func(parent int, ct int32, name string) raw {
		return raw{parent: parent, ct: ct, name: name, labeledBy: -1, bounds: image.Rect(0, 0, 10, 10), pid: 7}
	}
	raws := []raw{
		r(-1, WindowControlTypeID, "Form"),      // 0
		r(0, GroupControlTypeID, "Billing"),     // 1
		r(1, TextControlTypeID, "Name:"),        // 2
		r(1, EditControlTypeID, ""),             // 3: labelled by 2
		r(1, ButtonControlTypeID, "Save"),       // 4
		r(0, PaneControlTypeID, "Scrolled off"), // 5: off screen
		r(5, ButtonControlTypeID, "Save"),       // 6: shown, in the off-screen pane
		r(0, EditControlTypeID, "Secret"),       // 7: a password field
		r(0, ButtonControlTypeID, "Save"),       // 8
		r(0, ButtonControlTypeID, "Save"),       // 9: off screen, yet numbered
	}
	raws[0].class = dialogClass
	raws[3].labeledBy, raws[3].labelName, raws[3].value, raws[3].hasValue, raws[3].id = 2, "Name:", "b-name", true, "1001"
	raws[5].offscreen, raws[9].offscreen = true, true
	raws[7].password, raws[7].value, raws[7].hasValue = true, "hunter2", true
	nodes, from := assemble(raws, "form.exe", 100)
	type want struct {
		role, name, path, value, id string
		parent, label, from         int
	}
	wants := []want{
		{"dialog", "Form", "Window[Form]", "", "", -1, -1, 0},
		{"group", "Billing", "Window[Form]/Group[Billing]", "", "", 0, -1, 1},
		{"text", "Name:", "Window[Form]/Group[Billing]/Text[Name:]", "", "", 1, -1, 2},
		{"textbox", "Name:", "Window[Form]/Group[Billing]/Edit", "b-name", "1001", 1, 2, 3},
		{"button", "Save", "Window[Form]/Group[Billing]/Button[Save]", "", "", 1, -1, 4},
		{"button", "Save", "Window[Form]/Pane[Scrolled off]/Button[Save]", "", "", 0, -1, 6},
		{"textbox", "Secret", "Window[Form]/PasswordEdit[Secret]", "", "", 0, -1, 7},
		{"button", "Save", "Window[Form]/Button[Save]#1", "", "", 0, -1, 8},
	}
	if len(nodes) != len(wants) {
		t.Fatalf("assemble gave %d nodes; want %d: %+v", len(nodes), len(wants), nodes)
	}
	for i, w := range wants {
		n := nodes[i]
		got := want{n.Role, n.Label, n.AXPath, n.Value, n.ID, n.Parent, n.LabeledBy, from[i]}
		if got != w {
			t.Errorf("node %d = %+v; want %+v", i, got, w)
		}
		if n.Window != "Form" || n.App != "form.exe" || n.PID != 7 {
			t.Errorf("node %d window %q app %q pid %d; want Form, form.exe, 7", i, n.Window, n.App, n.PID)
		}
	}
	if !nodes[6].Password || !nodes[6].IsPassword() {
		t.Errorf("the password field is not marked: %+v", nodes[6])
	}
	if short, _ := assemble(raws, "", 3); len(short) != 3 {
		t.Errorf("assemble with limit 3 gave %d nodes", len(short))
	}
	if none, _ := assemble(nil, "", 3); none != nil {
		t.Errorf("assemble of nothing = %+v", none)
	}
}
