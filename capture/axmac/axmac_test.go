package axmac

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestRole(t *testing.T) {
	for ax, want := range map[string]string{
		"AXButton": "button", "AXTextField": "textbox", "AXSecureTextField": "textbox",
		"AXCheckBox": "checkbox", "AXRadioButton": "radio", "AXPopUpButton": "combobox",
		"AXComboBox": "combobox", "AXLink": "link", "AXMenuItem": "menuitem",
		"AXWindow": "window", "AXSplitter": "splitter",
	} {
		if got := Role(ax); got != want {
			t.Errorf("Role(%q) = %q, want %q", ax, got, want)
		}
	}
}

func TestSegmentRole(t *testing.T) {
	for _, tc := range []struct{ role, sub, want string }{
		{"AXTextField", "AXSecureTextField", "AXSecureTextField"},
		{"AXSecureTextField", "", "AXSecureTextField"},
		{"AXTextField", "AXSearchField", "AXTextField"},
		{"AXButton", "AXCloseButton", "AXButton"},
	} {
		if got := SegmentRole(tc.role, tc.sub); got != tc.want {
			t.Errorf("SegmentRole(%q, %q) = %q, want %q", tc.role, tc.sub, got, tc.want)
		}
	}
}

func TestFormatPathAndLastRole(t *testing.T) {
	for _, tc := range []struct {
		nodes []Node
		path  string
		last  string
	}{
		{[]Node{{Role: "AXWindow", Name: "Title"}, {Role: "AXGroup"}, {Role: "AXTextField", Name: "First Name"}},
			"AXWindow[Title]/AXGroup/AXTextField[First Name]", "AXTextField"},
		{[]Node{{Role: "AXWindow", Name: "a/b [x] #1"}, {Role: "AXSecureTextField", Ordinal: 2}},
			`AXWindow[a\/b \[x\] \#1]/AXSecureTextField#2`, "AXSecureTextField"},
		{[]Node{{Role: "AXWindow", Name: `back\slash`}}, `AXWindow[back\\slash]`, "AXWindow"},
		{nil, "", ""},
	} {
		got := FormatPath(tc.nodes)
		if got != tc.path {
			t.Errorf("FormatPath = %q, want %q", got, tc.path)
		}
		if lr := LastRole(got); lr != tc.last {
			t.Errorf("LastRole(%q) = %q, want %q", got, lr, tc.last)
		}
	}
}

func TestOrdinal(t *testing.T) {
	sibs := []Node{{Role: "AXTextField"}, {Role: "AXButton", Name: "OK"}, {Role: "AXTextField"}, {Role: "AXTextField", Name: "x"}}
	for at, want := range map[int]int{0: 1, 1: 0, 2: 2, 3: 0, 9: 0, -1: 0} {
		if got := ordinal(sibs, at); got != want {
			t.Errorf("ordinal(%d) = %d, want %d", at, got, want)
		}
	}
}

func TestEnrichmentAndIsPassword(t *testing.T) {
	e := enrichment([]Node{{Role: "AXWindow", Name: "Login"}, {Role: "AXSecureTextField", Name: "Password"}}, "Password")
	if e.Kind != events.KindAX || e.Role != "textbox" || e.Label != "Password" || e.Selectors == nil ||
		*e.AXPath != "AXWindow[Login]/AXSecureTextField[Password]" {
		t.Fatalf("enrichment = %+v", e)
	}
	if !IsPassword(e) {
		t.Error("a secure text field is a password")
	}
	plain := enrichment([]Node{{Role: "AXWindow"}, {Role: "AXTextField", Name: "AXSecureTextField"}}, "")
	if IsPassword(plain) || IsPassword(nil) {
		t.Error("a text field named like a secure one is not a password")
	}
	if enrichment(nil, "") != nil {
		t.Error("no nodes, no enrichment")
	}
}
