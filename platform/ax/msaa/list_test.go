package msaa

import (
	"image"
	"testing"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
	"github.com/reprise-dev/reprise/selector"
)

// TestSelectorRoles is the table of MSAA roles and the selector roles they
// resolve as (selector.RoleOf of Role.Reprise), so that a change to either
// mapping shows here.
func TestSelectorRoles(t *testing.T) {
	want := map[Role]string{
		RolePushButton: "button", RoleButtonMenu: "button", RoleButtonDropDown: "button",
		RoleButtonDropDownGrid: "button", RoleSplitButton: "button", RoleOutlineButton: "button",
		RoleText: "text_field", RoleHotkeyField: "text_field", RoleIPAddress: "text_field", RoleSpinButton: "text_field",
		RoleStaticText: "text", RoleCheckButton: "checkbox", RoleRadioButton: "radio",
		RoleComboBox: "combo_box", RoleDropList: "combo_box", RoleListItem: "list_item", RoleOutlineItem: "list_item",
		RoleRow: "list_item", RoleMenuItem: "menu_item", RolePageTab: "tab", RoleLink: "link",
		RoleCell: "cell", RoleColumnHeader: "cell", RoleRowHeader: "cell",
		RoleList: "list", RoleTable: "list", RoleOutline: "list", RolePageTabList: "list",
		RoleGrouping: "group", RoleClient: "group", RolePane: "group", RoleToolBar: "group", RolePropertyPage: "group",
		RoleWindow: "window", RoleDialog: "window",
	}
	for r := RoleTitleBar; r <= RoleOutlineButton; r++ {
		w, ok := want[r]
		if !ok {
			w = "other"
		}
		if got := selector.RoleOf(r.Reprise()); got != w {
			t.Errorf("MSAA role %s (%#x) resolves as %q; want %q", r.Segment(), int32(r), got, w)
		}
	}
	if got := selector.RoleOf(element{roleText: "custom"}.reprise()); got != "other" {
		t.Errorf("an application's own role text resolves as %q; want other", got)
	}
}

// TestAssemble builds a listing from a walk: paths as At writes them,
// numbered among siblings, the static text before a field as its label,
// no value for a protected field, the limit.
func TestAssemble(t *testing.T) {
	win := func(parent int, role Role, name string, state uint32) raw {
		el := element{role: role, name: name, state: state}
		return raw{parent: parent, el: el, box: image.Rect(1, 2, 3, 4),
			segs: []axpath.Node{{Role: "window", Name: name}, {Role: el.segment(), Name: name}}}
	}
	raws := []raw{
		{parent: -1, el: element{role: RoleWindow, name: "Form"},
			segs: []axpath.Node{{Role: "window", Name: "Form"}, {Role: "client", Name: "Form"}}},
		win(0, RoleGrouping, "Billing", 0),            // 1
		win(1, RoleStaticText, "Name:", 0),            // 2
		win(1, RoleText, "Name:", 0),                  // 3: labelled by 2
		win(1, RoleStaticText, "City", 0),             // 4
		win(1, RoleText, "Name", 0),                   // 5: not after its label
		win(0, RolePushButton, "Add", 0),              // 6
		win(0, RolePushButton, "Add", 0),              // 7
		win(0, RoleText, "Password:", StateProtected), // 8
		{parent: 6, el: element{role: RoleListItem, name: "one"}, segs: []axpath.Node{{Role: "list item", Name: "one"}}},
	}
	raws[3].value, raws[3].id = "b-name", "2002"
	raws[8].value = "hunter2"
	nodes := assemble(raws, "form.exe", 100)
	type want struct {
		role, name, path, value, id string
		parent, label               int
	}
	wants := []want{
		{"window", "Form", "window[Form]/client[Form]", "", "", -1, -1},
		{"group", "Billing", "window[Form]/client[Form]/window[Billing]/grouping[Billing]", "", "", 0, -1},
		{"text", "Name:", "window[Form]/client[Form]/window[Billing]/grouping[Billing]/window[Name:]#1/static text[Name:]", "", "", 1, -1},
		{"textbox", "Name:", "window[Form]/client[Form]/window[Billing]/grouping[Billing]/window[Name:]#2/text[Name:]", "b-name", "2002", 1, 2},
		{"text", "City", "window[Form]/client[Form]/window[Billing]/grouping[Billing]/window[City]/static text[City]", "", "", 1, -1},
		{"textbox", "Name", "window[Form]/client[Form]/window[Billing]/grouping[Billing]/window[Name]/text[Name]", "", "", 1, -1},
		{"button", "Add", "window[Form]/client[Form]/window[Add]#1/push button[Add]", "", "", 0, -1},
		{"button", "Add", "window[Form]/client[Form]/window[Add]#2/push button[Add]", "", "", 0, -1},
		{"textbox", "Password:", "window[Form]/client[Form]/window[Password:]/password text[Password:]", "", "", 0, -1},
		{"listitem", "one", "window[Form]/client[Form]/window[Add]#1/push button[Add]/list item[one]", "", "", 6, -1},
	}
	if len(nodes) != len(wants) {
		t.Fatalf("assemble gave %d nodes; want %d", len(nodes), len(wants))
	}
	for i, w := range wants {
		n := nodes[i]
		got := want{n.Role, n.Name, n.Path, n.Value, n.ID, n.Parent, n.Label}
		if got != w {
			t.Errorf("node %d = %+v;\nwant %+v", i, got, w)
		}
		if n.Window != "Form" || n.App != "form.exe" {
			t.Errorf("node %d window %q app %q; want Form, form.exe", i, n.Window, n.App)
		}
	}
	if !nodes[8].Password || nodes[3].Password {
		t.Errorf("password marks: %v %v; want the protected field alone", nodes[8].Password, nodes[3].Password)
	}
	if short := assemble(raws, "", 4); len(short) != 4 {
		t.Errorf("assemble with limit 4 gave %d nodes", len(short))
	}
}

func TestClassRole(t *testing.T) {
	for _, tc := range []struct {
		class string
		style uint32
		want  Role
		ok    bool
	}{
		{"Button", 0x50010000, RolePushButton, true},
		{"BUTTON", 0x50010003, RoleCheckButton, true},
		{"Button", 0x50000007, RoleGrouping, true},
		{"Button", 0x50000009, RoleRadioButton, true},
		{"Static", 0x50000000, RoleStaticText, true},
		{"Edit", 0x50810080, RoleText, true},
		{"RepriseSelectorForm", 0, 0, false},
	} {
		if got, ok := ClassRole(tc.class, tc.style); got != tc.want || ok != tc.ok {
			t.Errorf("ClassRole(%q, %#x) = %v, %v; want %v, %v", tc.class, tc.style, got, ok, tc.want, tc.ok)
		}
	}
}
