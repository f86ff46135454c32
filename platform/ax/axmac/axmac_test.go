package axmac

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
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

func TestEnrichmentAndIsPassword(t *testing.T) {
	e := enrichment([]axpath.Node{{Role: "AXWindow", Name: "Login"}, {Role: "AXSecureTextField", Name: "Password"}}, "Password")
	if e.Kind != events.KindAX || e.Role != "textbox" || e.Label != "Password" || e.Selectors == nil ||
		*e.AXPath != "AXWindow[Login]/AXSecureTextField[Password]" {
		t.Fatalf("enrichment = %+v", e)
	}
	if !IsPassword(e) {
		t.Error("a secure text field is a password")
	}
	plain := enrichment([]axpath.Node{{Role: "AXWindow"}, {Role: "AXTextField", Name: "AXSecureTextField"}}, "")
	if IsPassword(plain) || IsPassword(nil) {
		t.Error("a text field named like a secure one is not a password")
	}
	if enrichment(nil, "") != nil {
		t.Error("no nodes, no enrichment")
	}
}
