package msaa

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

func TestRoles(t *testing.T) {
	tests := []struct {
		role             Role
		segment, reprise string
	}{
		{RoleWindow, "window", "window"},
		{RoleClient, "client", "group"},
		{RoleMenuItem, "menu item", "menuitem"},
		{RoleDocument, "document", "document"},
		{RoleLink, "link", "link"},
		{RoleList, "list", "list"},
		{RoleListItem, "list item", "listitem"},
		{RolePageTab, "page tab", "tab"},
		{RoleStaticText, "static text", "text"},
		{RoleText, "text", "textbox"},
		{RolePushButton, "push button", "button"},
		{RoleCheckButton, "check button", "checkbox"},
		{RoleRadioButton, "radio button", "radio"},
		{RoleComboBox, "combo box", "combobox"},
		{RoleDialog, "dialog", "dialog"},
		{RoleTitleBar, "title bar", "titlebar"},
		{RoleOutlineButton, "outline button", "button"},
		{Role(0), "role0", ""},
		{Role(0x41), "role65", ""},
		{Role(-5), "role-5", ""},
	}
	for _, tt := range tests {
		if got := tt.role.Segment(); got != tt.segment {
			t.Errorf("Role(%d).Segment() = %q; want %q", tt.role, got, tt.segment)
		}
		if got := tt.role.Reprise(); got != tt.reprise {
			t.Errorf("Role(%d).Reprise() = %q; want %q", tt.role, got, tt.reprise)
		}
	}
}

// TestRoleTableComplete checks that every ROLE_SYSTEM_* of oleacc.h (1 to
// 0x40) has a segment of its own, so that no two roles share a path name.
func TestRoleTableComplete(t *testing.T) {
	seen := map[string]Role{}
	for r := RoleTitleBar; r <= RoleOutlineButton; r++ {
		n, ok := roleNames[r]
		if !ok || n.segment == "" || n.reprise == "" {
			t.Errorf("role %d has no names: %+v", r, n)
			continue
		}
		if other, dup := seen[n.segment]; dup {
			t.Errorf("roles %d and %d share the segment %q", other, r, n.segment)
		}
		seen[n.segment] = r
	}
	if len(roleNames) != int(RoleOutlineButton) {
		t.Errorf("roleNames has %d roles; want %d", len(roleNames), RoleOutlineButton)
	}
	if _, dup := seen[SegmentPassword]; dup {
		t.Errorf("a role's segment is %q, the password marker", SegmentPassword)
	}
}

func TestSegmentRole(t *testing.T) {
	tests := []struct {
		role  Role
		state uint32
		want  string
	}{
		{RoleText, 0, "text"},
		{RoleText, 0x100004, "text"}, // focusable, focused
		{RoleText, StateProtected, SegmentPassword},
		{RoleText, StateProtected | 0x100004, SegmentPassword},
		{RolePushButton, StateProtected, "push button"}, // only a text field is a password field
		{RoleComboBox, StateProtected, "combo box"},
	}
	for _, tt := range tests {
		if got := SegmentRole(tt.role, tt.state); got != tt.want {
			t.Errorf("SegmentRole(%d, %#x) = %q; want %q", tt.role, tt.state, got, tt.want)
		}
	}
}

func TestIsPassword(t *testing.T) {
	path := func(s string) *string { return &s }
	tests := []struct {
		name string
		e    *events.Enrichment
		want bool
	}{
		{"nil", nil, false},
		{"password", &events.Enrichment{Kind: events.KindAX, AXPath: path("window[Sign in]/client[Sign in]/window[Password:]#2/password text[Password:]")}, true},
		{"text", &events.Enrichment{Kind: events.KindAX, AXPath: path("window[Sign in]/client/window/text[Password:]")}, false},
		{"named password", &events.Enrichment{Kind: events.KindAX, AXPath: path("window/text[password text]")}, false},
		{"ancestor", &events.Enrichment{Kind: events.KindAX, AXPath: path("window/password text/text")}, false},
		{"numbered", &events.Enrichment{Kind: events.KindAX, AXPath: path("window/password text#2")}, true},
		{"no path", &events.Enrichment{Kind: events.KindAX}, false},
		{"dom", &events.Enrichment{Kind: events.KindDOM, AXPath: path("password text")}, false},
	}
	for _, tt := range tests {
		if got := IsPassword(tt.e); got != tt.want {
			t.Errorf("IsPassword(%s) = %v; want %v", tt.name, got, tt.want)
		}
	}
}

func TestEnrichment(t *testing.T) {
	if e := enrichment(nil, element{role: RoleText}); e != nil {
		t.Errorf("enrichment(no nodes) = %+v; want nil", e)
	}
	leaf := element{role: RoleText, name: "Password:", state: StateProtected}
	nodes := []axpath.Node{
		{Role: "window", Name: "Sign in"},
		{Role: "client", Name: "Sign in"},
		{Role: "window", Name: "Password:", Ordinal: 2},
		{Role: leaf.segment(), Name: leaf.name},
	}
	e := enrichment(nodes, leaf)
	want := "window[Sign in]/client[Sign in]/window[Password:]#2/password text[Password:]"
	if e.Kind != events.KindAX || e.AXPath == nil || *e.AXPath != want || e.Role != "textbox" ||
		e.Label != "Password:" || e.Selectors == nil || len(e.Selectors) != 0 || e.URL != "" {
		t.Errorf("enrichment = %+v (path %v); want ax, path %q, textbox, label Password:, no selectors", e, e.AXPath, want)
	}
	if !IsPassword(e) {
		t.Errorf("IsPassword(%q) = false; want true", *e.AXPath)
	}
	custom := element{roleText: "MyWidget", name: "x"}
	if got := enrichment([]axpath.Node{{Role: custom.segment()}}, custom); got.Role != "" || *got.AXPath != "MyWidget" {
		t.Errorf("enrichment(custom role) = role %q path %q; want no role, path MyWidget", got.Role, *got.AXPath)
	}
}
