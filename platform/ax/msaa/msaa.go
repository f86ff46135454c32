// Package msaa enriches desktop steps on Windows from Microsoft Active
// Accessibility (SPEC section 9): for a point on the screen it names the
// element under it (role, label, path) through oleacc's
// AccessibleObjectFromPoint and the element's IAccessible properties,
// through golang.org/x/sys/windows without cgo.
//
// MSAA is the fallback beside UI Automation: every Windows version and Wine
// have it (Wine 8 has no UI Automation), and oleacc's standard proxies
// describe every standard control of every Win32 application.
//
// Roles: MSAA roles (ROLE_SYSTEM_* in oleacc.h) map onto reprise's (Role.Reprise):
// ROLE_SYSTEM_TEXT is "textbox", ROLE_SYSTEM_PUSHBUTTON "button",
// ROLE_SYSTEM_CHECKBUTTON "checkbox", and so on. A text field whose state
// has STATE_SYSTEM_PROTECTED is a password field: Role still says
// "textbox", and IsPassword tells it apart.
//
// Paths: AXPath runs from the top-level window down, one segment per
// element: a fixed English name of the MSAA role ("window", "client",
// "text", "push button", ...; never GetRoleText's, which is localized),
// "[name]" when the element has a name, and "#n" when several siblings
// share role and name, as in "window[Untitled - Notepad]/client[Untitled -
// Notepad]/window/text" — the format of platform/ax/axpath. A password field's
// segment is "password text", which is how IsPassword knows it from the
// stored step.
//
// Labels: the element's accName, which oleacc's proxy for an edit control
// takes from the static text created just before it (its label). A field's
// value (accValue) is never read.
package msaa

import (
	"errors"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// ErrUnsupported is returned where there is no MSAA.
var ErrUnsupported = errors.New("MSAA is Windows-only: it is supported on windows/amd64 and windows/arm64")

// ErrClosed is returned by At after Close.
var ErrClosed = errors.New("msaa: the enricher is closed")

// Options configure an Enricher.
type Options struct {
	// Logger receives the enricher's diagnostics; nil discards them.
	Logger *slog.Logger
}

// Role is an MSAA role, a ROLE_SYSTEM_* value of oleacc.h.
type Role int32

// The MSAA roles, from oleacc.h.
const (
	RoleTitleBar           Role = 0x01
	RoleMenuBar            Role = 0x02
	RoleScrollBar          Role = 0x03
	RoleGrip               Role = 0x04
	RoleSound              Role = 0x05
	RoleCursor             Role = 0x06
	RoleCaret              Role = 0x07
	RoleAlert              Role = 0x08
	RoleWindow             Role = 0x09
	RoleClient             Role = 0x0a
	RoleMenuPopup          Role = 0x0b
	RoleMenuItem           Role = 0x0c
	RoleToolTip            Role = 0x0d
	RoleApplication        Role = 0x0e
	RoleDocument           Role = 0x0f
	RolePane               Role = 0x10
	RoleChart              Role = 0x11
	RoleDialog             Role = 0x12
	RoleBorder             Role = 0x13
	RoleGrouping           Role = 0x14
	RoleSeparator          Role = 0x15
	RoleToolBar            Role = 0x16
	RoleStatusBar          Role = 0x17
	RoleTable              Role = 0x18
	RoleColumnHeader       Role = 0x19
	RoleRowHeader          Role = 0x1a
	RoleColumn             Role = 0x1b
	RoleRow                Role = 0x1c
	RoleCell               Role = 0x1d
	RoleLink               Role = 0x1e
	RoleHelpBalloon        Role = 0x1f
	RoleCharacter          Role = 0x20
	RoleList               Role = 0x21
	RoleListItem           Role = 0x22
	RoleOutline            Role = 0x23
	RoleOutlineItem        Role = 0x24
	RolePageTab            Role = 0x25
	RolePropertyPage       Role = 0x26
	RoleIndicator          Role = 0x27
	RoleGraphic            Role = 0x28
	RoleStaticText         Role = 0x29
	RoleText               Role = 0x2a
	RolePushButton         Role = 0x2b
	RoleCheckButton        Role = 0x2c
	RoleRadioButton        Role = 0x2d
	RoleComboBox           Role = 0x2e
	RoleDropList           Role = 0x2f
	RoleProgressBar        Role = 0x30
	RoleDial               Role = 0x31
	RoleHotkeyField        Role = 0x32
	RoleSlider             Role = 0x33
	RoleSpinButton         Role = 0x34
	RoleDiagram            Role = 0x35
	RoleAnimation          Role = 0x36
	RoleEquation           Role = 0x37
	RoleButtonDropDown     Role = 0x38
	RoleButtonMenu         Role = 0x39
	RoleButtonDropDownGrid Role = 0x3a
	RoleWhitespace         Role = 0x3b
	RolePageTabList        Role = 0x3c
	RoleClock              Role = 0x3d
	RoleSplitButton        Role = 0x3e
	RoleIPAddress          Role = 0x3f
	RoleOutlineButton      Role = 0x40
)

// StateProtected is STATE_SYSTEM_PROTECTED: the element's value is a
// secret (an ES_PASSWORD edit, a browser's password input).
const StateProtected uint32 = 0x20000000

// SegmentPassword is the path segment of a protected text field.
const SegmentPassword = "password text"

// roleNames holds, for each MSAA role, the path segment name (fixed
// English, so that a path recorded on a French Windows replays on an
// English one) and reprise's role (platform/ax/axmac's vocabulary).
var roleNames = map[Role]struct{ segment, reprise string }{
	RoleTitleBar:           {"title bar", "titlebar"},
	RoleMenuBar:            {"menu bar", "menubar"},
	RoleScrollBar:          {"scroll bar", "scrollbar"},
	RoleGrip:               {"grip", "grip"},
	RoleSound:              {"sound", "sound"},
	RoleCursor:             {"cursor", "cursor"},
	RoleCaret:              {"caret", "caret"},
	RoleAlert:              {"alert", "alert"},
	RoleWindow:             {"window", "window"},
	RoleClient:             {"client", "group"},
	RoleMenuPopup:          {"menu popup", "menu"},
	RoleMenuItem:           {"menu item", "menuitem"},
	RoleToolTip:            {"tool tip", "tooltip"},
	RoleApplication:        {"application", "application"},
	RoleDocument:           {"document", "document"},
	RolePane:               {"pane", "group"},
	RoleChart:              {"chart", "img"},
	RoleDialog:             {"dialog", "dialog"},
	RoleBorder:             {"border", "border"},
	RoleGrouping:           {"grouping", "group"},
	RoleSeparator:          {"separator", "separator"},
	RoleToolBar:            {"tool bar", "toolbar"},
	RoleStatusBar:          {"status bar", "status"},
	RoleTable:              {"table", "table"},
	RoleColumnHeader:       {"column header", "columnheader"},
	RoleRowHeader:          {"row header", "rowheader"},
	RoleColumn:             {"column", "column"},
	RoleRow:                {"row", "row"},
	RoleCell:               {"cell", "cell"},
	RoleLink:               {"link", "link"},
	RoleHelpBalloon:        {"help balloon", "tooltip"},
	RoleCharacter:          {"character", "img"},
	RoleList:               {"list", "list"},
	RoleListItem:           {"list item", "listitem"},
	RoleOutline:            {"outline", "tree"},
	RoleOutlineItem:        {"outline item", "treeitem"},
	RolePageTab:            {"page tab", "tab"},
	RolePropertyPage:       {"property page", "tabpanel"},
	RoleIndicator:          {"indicator", "img"},
	RoleGraphic:            {"graphic", "img"},
	RoleStaticText:         {"static text", "text"},
	RoleText:               {"text", "textbox"},
	RolePushButton:         {"push button", "button"},
	RoleCheckButton:        {"check button", "checkbox"},
	RoleRadioButton:        {"radio button", "radio"},
	RoleComboBox:           {"combo box", "combobox"},
	RoleDropList:           {"drop list", "combobox"},
	RoleProgressBar:        {"progress bar", "progressbar"},
	RoleDial:               {"dial", "slider"},
	RoleHotkeyField:        {"hotkey field", "textbox"},
	RoleSlider:             {"slider", "slider"},
	RoleSpinButton:         {"spin button", "spinbutton"},
	RoleDiagram:            {"diagram", "img"},
	RoleAnimation:          {"animation", "img"},
	RoleEquation:           {"equation", "math"},
	RoleButtonDropDown:     {"button drop down", "button"},
	RoleButtonMenu:         {"button menu", "button"},
	RoleButtonDropDownGrid: {"button drop down grid", "button"},
	RoleWhitespace:         {"whitespace", "none"},
	RolePageTabList:        {"page tab list", "tablist"},
	RoleClock:              {"clock", "timer"},
	RoleSplitButton:        {"split button", "button"},
	RoleIPAddress:          {"ip address", "textbox"},
	RoleOutlineButton:      {"outline button", "button"},
}

// Segment is the role's path segment name; a role oleacc.h does not know
// (applications may invent their own numbers) is "role<n>".
func (r Role) Segment() string {
	if n, ok := roleNames[r]; ok {
		return n.segment
	}
	return fmt.Sprintf("role%d", int32(r))
}

// Reprise is the role in reprise's vocabulary (the one platform/ax/axmac and
// platform/ax/atspi use); empty for a role oleacc.h does not know.
func (r Role) Reprise() string {
	return roleNames[r].reprise
}

// SegmentRole is the path segment of an element with this role and state:
// the role's Segment, except "password text" for a protected text field.
func SegmentRole(r Role, state uint32) string {
	if r == RoleText && state&StateProtected != 0 {
		return SegmentPassword
	}
	return r.Segment()
}

// IsPassword reports whether e describes a password field, whose value must
// never leave the capture source (SPEC section 8). The marker is the path's
// last segment, so the answer survives the step being stored.
func IsPassword(e *events.Enrichment) bool {
	return axpath.IsPassword(e, SegmentPassword)
}

// element is what the enricher read of one element: its role (or, rarely,
// the string an application gives as its role), name and state.
type element struct {
	role     Role
	roleText string // set when get_accRole answered a BSTR
	name     string
	state    uint32
}

// segment is the element's path segment role.
func (e element) segment() string {
	if e.roleText != "" {
		return e.roleText
	}
	return SegmentRole(e.role, e.state)
}

// reprise is the element's role in reprise's vocabulary.
func (e element) reprise() string {
	if e.roleText != "" {
		return ""
	}
	return e.role.Reprise()
}

// enrichment builds the step's enrichment from the path, window first, and
// the element at the point, which is the path's last node.
func enrichment(nodes []axpath.Node, leaf element) *events.Enrichment {
	return axpath.Enrichment(nodes, leaf.reprise(), leaf.name, "")
}
