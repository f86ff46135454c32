// Package axmac enriches desktop steps on macOS from the accessibility (AX)
// tree (SPEC section 9): for a point on the screen it names the element
// under it (role, label, path) through AXUIElementCopyElementAtPosition and
// the element's attributes, through purego without cgo.
//
// Roles: AX roles map onto reprise's (Role): AXButton is "button",
// AXTextField "textbox", AXSecureTextField "textbox" too (IsPassword tells
// it apart, and its value is never read), AXCheckBox "checkbox",
// AXRadioButton "radio", AXPopUpButton and AXComboBox "combobox", AXLink
// "link", AXMenuItem "menuitem".
//
// Paths: AXPath runs from the window down, one segment per element: the AX
// role (the subrole AXSecureTextField in place of AXTextField, so that a
// password field is known from its path), "[name]" when the element has a
// title or description, and "#n" when several siblings share role and name,
// as in "AXWindow[New customer]/AXGroup/AXTextField[First Name]" — the
// format platform/ax/atspi uses, with AX's role names. IsPassword reads the last
// segment.
//
// Labels: AXTitle; else the title or value of AXTitleUIElement (the static
// text that labels a field); else AXDescription; else AXPlaceholderValue.
// A field's own AXValue is never read.
//
// Replay: Find lists the elements with a role and label in the windows
// with a title (AXWindows of each application with a window on screen),
// walking AXChildren depth first within bounds; Press performs AXPress,
// SetValue sets AXValue and Value reads it back. A secure text field's
// value is never read or set (ErrSecureField). Each Element holds a
// retained AXUIElementRef until Element.Release or Enricher.Close.
//
// Chromium and Electron build their AX tree only when an assistive
// application asks: the Enricher sets AXManualAccessibility to true on
// each application element it meets (once per process; other apps answer
// "unsupported", which is ignored). The older AXEnhancedUserInterface is not
// used: it breaks window animations and positioning.
//
// Permissions: AX needs the process to be trusted for Accessibility
// (IsTrusted; RequestTrust shows the system prompt).
package axmac

import (
	"errors"
	"runtime"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// ErrUnsupported is returned off macOS.
var ErrUnsupported = errors.New("macOS accessibility is not supported on " + runtime.GOOS)

// ErrNotTrusted is returned when the process is not trusted for
// Accessibility.
var ErrNotTrusted = errors.New("this process is not trusted for Accessibility: allow it in System Settings > " +
	"Privacy & Security > Accessibility")

// AX role names that matter to reprise.
const (
	RoleSecureTextField = "AXSecureTextField"
	RoleApplication     = "AXApplication"
	RoleWindow          = "AXWindow"
)

var roles = map[string]string{
	"AXButton": "button", "AXTextField": "textbox", RoleSecureTextField: "textbox",
	"AXTextArea": "textbox", "AXSearchField": "textbox", "AXCheckBox": "checkbox",
	"AXRadioButton": "radio", "AXPopUpButton": "combobox", "AXComboBox": "combobox",
	"AXLink": "link", "AXMenuItem": "menuitem", "AXMenuBarItem": "menuitem", "AXMenuButton": "button",
	"AXStaticText": "text", "AXImage": "img", "AXWindow": "window", "AXSheet": "dialog",
	"AXDialog": "dialog", "AXTabGroup": "tablist", "AXTab": "tab", "AXRadioGroup": "radiogroup",
	"AXList": "list", "AXTable": "table", "AXOutline": "tree", "AXRow": "row", "AXCell": "cell",
	"AXSlider": "slider", "AXIncrementor": "spinbutton", "AXToolbar": "toolbar", "AXGroup": "group",
	"AXScrollArea": "group", "AXWebArea": "document", "AXHeading": "heading", "AXMenu": "menu",
	"AXMenuBar": "menubar", "AXDisclosureTriangle": "button", "AXProgressIndicator": "progressbar",
}

// Role maps an AX role (or subrole, for AXSecureTextField) to reprise's
// role vocabulary; an unknown role comes back lower-cased without its "AX".
func Role(axRole string) string {
	if r, ok := roles[axRole]; ok {
		return r
	}
	return strings.ToLower(strings.TrimPrefix(axRole, "AX"))
}

// SegmentRole is the role a path segment names: the subrole when it is
// AXSecureTextField (NSSecureTextField reports role AXTextField with that
// subrole), else the role.
func SegmentRole(role, subrole string) string {
	if subrole == RoleSecureTextField || role == RoleSecureTextField {
		return RoleSecureTextField
	}
	return role
}

// IsPassword reports whether an enrichment is of a secure text field, whose
// value a step must never carry (SPEC section 8).
func IsPassword(e *events.Enrichment) bool {
	return axpath.IsPassword(e, RoleSecureTextField)
}

// enrichment builds the step's enrichment from the path, window first.
func enrichment(nodes []axpath.Node, label string) *events.Enrichment {
	if len(nodes) == 0 {
		return nil
	}
	return axpath.Enrichment(nodes, Role(nodes[len(nodes)-1].Role), label, "")
}
