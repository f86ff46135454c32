package axmac

import (
	"testing"

	"github.com/reprise-dev/reprise/selector"
)

// TestSelectorRole is macOS's row of the role table: what Role calls each
// AX role, and the selector role that comes to. It runs on every OS: the
// mapping is pure, only the tree it reads is macOS's.
func TestSelectorRole(t *testing.T) {
	for _, tc := range []struct{ ax, aria, sel string }{
		{"AXButton", "button", "button"},
		{"AXMenuButton", "button", "button"},
		{"AXDisclosureTriangle", "button", "button"},
		{"AXTextField", "textbox", "text_field"},
		{"AXSecureTextField", "textbox", "text_field"},
		{"AXTextArea", "textbox", "text_field"},
		{"AXSearchField", "textbox", "text_field"},
		{"AXIncrementor", "spinbutton", "text_field"},
		{"AXStaticText", "text", "text"},
		{"AXHeading", "heading", "text"},
		{"AXCheckBox", "checkbox", "checkbox"},
		{"AXSwitch", "switch", "checkbox"},
		{"AXRadioButton", "radio", "radio"},
		{"AXPopUpButton", "combobox", "combo_box"},
		{"AXComboBox", "combobox", "combo_box"},
		{"AXRow", "row", "list_item"},
		{"AXMenuItem", "menuitem", "menu_item"},
		{"AXMenuBarItem", "menuitem", "menu_item"},
		{"AXTab", "tab", "tab"},
		{"AXLink", "link", "link"},
		{"AXCell", "cell", "cell"},
		{"AXList", "list", "list"},
		{"AXTable", "table", "list"},
		{"AXOutline", "tree", "list"},
		{"AXTabGroup", "tablist", "list"},
		{"AXGroup", "group", "group"},
		{"AXRadioGroup", "radiogroup", "group"},
		{"AXToolbar", "toolbar", "group"},
		{"AXScrollArea", "group", "group"},
		{"AXWindow", "window", "window"},
		{"AXSheet", "dialog", "window"},
		{"AXDialog", "dialog", "window"},
		{"AXImage", "img", "other"},
		{"AXSlider", "slider", "other"},
		{"AXSplitter", "splitter", "other"},
	} {
		got := Role(tc.ax)
		if got != tc.aria {
			t.Errorf("Role(%q) = %q; want %q", tc.ax, got, tc.aria)
		}
		if s := selector.RoleOf(got); s != tc.sel {
			t.Errorf("selector.RoleOf(Role(%q)) = %q; want %q", tc.ax, s, tc.sel)
		}
	}
}
