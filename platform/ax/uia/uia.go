// Package uia is Windows UI Automation through COM (SPEC sections 9 and
// 11): it enriches a recorded desktop step with the element under the
// pointer (At), and lets the desktop executor find an element again and act
// on it through UIA's control patterns (Find, Act, Value).
//
// Roles: UIA control types (UIA_ButtonControlTypeId 50000 to
// UIA_AppBarControlTypeId 50040) map onto reprise's ARIA-like vocabulary
// (Role): Button is "button", Edit "textbox", CheckBox "checkbox",
// RadioButton "radio", ComboBox "combobox", Hyperlink "link", MenuItem
// "menuitem", Window "window" (a Win32 dialog box, class "#32770", is
// "dialog").
//
// Paths: AXPath runs from the top-level window down (the desktop root is
// left out), one segment per element of UIA's control view: the control
// type's programmatic English name ("Window", "Pane", "Edit"; never the
// localized control type, so that the roles in a path do not change with
// the display language), "[name]", and "#n" among siblings sharing
// both, in the shared platform/ax/axpath format, as in
// "Window[New customer]/Pane/Edit[First Name]". A password field
// (CurrentIsPassword) is the segment role PasswordEdit, which IsPassword
// reads. A top-level window has no ordinal: its siblings are every window
// on the desktop in z-order, which changes as windows are activated.
//
// Labels: the element's Name (UIA derives a Win32 field's from the static
// text before it); else the Name of its LabeledBy element. A field's value
// is never read for enrichment.
//
// Selectors: a non-empty AutomationId goes in as an "id" selector, the
// closest of SPEC's strategies: like a DOM id it is the developer's stable
// identifier for the control (a Win32 dialog's control id, a WinForms
// control's Name, a WPF AutomationProperties.AutomationId).
//
// Replay: Find lists a window's elements of a role and label, and Act
// carries a step out through a control pattern (PatternFor). Act refuses
// password fields (ErrPassword), and elements of a process at a higher
// integrity level than ours (RefuseHigher), whose input Windows blocks.
//
// Threading: COM apartments belong to threads, and goroutines move between
// threads, so a Client makes every COM call on one goroutine locked to its
// thread, in the multithreaded apartment, serving the methods in turn.
//
// Wine 8 has no UIA client (uiautomationcore's DllGetClassObject is a stub,
// so New fails with REGDB_E_CLASSNOTREG); the COM code is tested there
// against a UIA server of the tests' own (testdata/fakeuia).
package uia

import (
	"errors"
	"fmt"
	"image"
	"log/slog"
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// ErrUnavailable is returned (wrapped, with the reason) when UI Automation
// cannot be used: off Windows, or when its COM server does not start.
var ErrUnavailable = errors.New("uia: UI Automation is unavailable")

// ErrPassword is returned when asked to act on or read a password field,
// which the executor never operates (SPEC section 11).
var ErrPassword = errors.New("uia: refusing to act on or read a password field")

// ErrNoWindow is returned by Find when no top-level window has the title.
var ErrNoWindow = errors.New("uia: no such top-level window")

// ErrClosed is returned by a Client's methods after Close.
var ErrClosed = errors.New("uia: client closed")

// ErrReleased is returned when an Element was released (or came from
// another Client).
var ErrReleased = errors.New("uia: element released or unknown")

// Options configure a Client.
type Options struct {
	// Logger receives the client's debug lines; nil discards them.
	Logger *slog.Logger
	// ServerDLL, when set, is a DLL standing in for UI Automation: its
	// export FakeUIA_Create makes the IUIAutomation object instead of
	// CoCreateInstance. Tests under Wine, which has no UI Automation
	// client, give testdata/fakeuia; nothing else should.
	ServerDLL string
}

// Element is an element Find found: what At would say of it, and an opaque
// handle to the UIA element. The handle stays valid until Client.Release
// or Client.Close; acting on it after that returns ErrReleased.
type Element struct {
	// Role, Label and AXPath are what At reports for the element.
	Role   string
	Label  string
	AXPath string
	// Bounds is where the element was drawn when found, in screen pixels.
	Bounds image.Rectangle
	// PID is the process that owns the element.
	PID int

	//lint:ignore U1000 the handle is only read on Windows
	h handle // the element in its Client
}

// IsPassword reports whether the element is a password field.
func (e Element) IsPassword() bool { return axpath.LastRole(e.AXPath) == SegmentPassword }

// Control type ids, from UIAutomationClient.h (module UIA_ControlTypeIds).
const (
	ButtonControlTypeID       = 50000
	CalendarControlTypeID     = 50001
	CheckBoxControlTypeID     = 50002
	ComboBoxControlTypeID     = 50003
	EditControlTypeID         = 50004
	HyperlinkControlTypeID    = 50005
	ImageControlTypeID        = 50006
	ListItemControlTypeID     = 50007
	ListControlTypeID         = 50008
	MenuControlTypeID         = 50009
	MenuBarControlTypeID      = 50010
	MenuItemControlTypeID     = 50011
	ProgressBarControlTypeID  = 50012
	RadioButtonControlTypeID  = 50013
	ScrollBarControlTypeID    = 50014
	SliderControlTypeID       = 50015
	SpinnerControlTypeID      = 50016
	StatusBarControlTypeID    = 50017
	TabControlTypeID          = 50018
	TabItemControlTypeID      = 50019
	TextControlTypeID         = 50020
	ToolBarControlTypeID      = 50021
	ToolTipControlTypeID      = 50022
	TreeControlTypeID         = 50023
	TreeItemControlTypeID     = 50024
	CustomControlTypeID       = 50025
	GroupControlTypeID        = 50026
	ThumbControlTypeID        = 50027
	DataGridControlTypeID     = 50028
	DataItemControlTypeID     = 50029
	DocumentControlTypeID     = 50030
	SplitButtonControlTypeID  = 50031
	WindowControlTypeID       = 50032
	PaneControlTypeID         = 50033
	HeaderControlTypeID       = 50034
	HeaderItemControlTypeID   = 50035
	TableControlTypeID        = 50036
	TitleBarControlTypeID     = 50037
	SeparatorControlTypeID    = 50038
	SemanticZoomControlTypeID = 50039
	AppBarControlTypeID       = 50040
)

// SegmentPassword is the path segment role of a password field.
const SegmentPassword = "PasswordEdit"

// dialogClass is the Win32 window class of a dialog box.
const dialogClass = "#32770"

// controlTypes holds, from UIA_ButtonControlTypeId on, each control type's
// programmatic name (the segment role) and reprise's role for it.
var controlTypes = [...]struct{ name, role string }{
	{"Button", "button"}, {"Calendar", "grid"}, {"CheckBox", "checkbox"}, {"ComboBox", "combobox"},
	{"Edit", "textbox"}, {"Hyperlink", "link"}, {"Image", "img"}, {"ListItem", "listitem"},
	{"List", "list"}, {"Menu", "menu"}, {"MenuBar", "menubar"}, {"MenuItem", "menuitem"},
	{"ProgressBar", "progressbar"}, {"RadioButton", "radio"}, {"ScrollBar", "scrollbar"},
	{"Slider", "slider"}, {"Spinner", "spinbutton"}, {"StatusBar", "status"}, {"Tab", "tablist"},
	{"TabItem", "tab"}, {"Text", "text"}, {"ToolBar", "toolbar"}, {"ToolTip", "tooltip"},
	{"Tree", "tree"}, {"TreeItem", "treeitem"}, {"Custom", "custom"}, {"Group", "group"},
	{"Thumb", "thumb"}, {"DataGrid", "grid"}, {"DataItem", "row"}, {"Document", "document"},
	{"SplitButton", "button"}, {"Window", "window"}, {"Pane", "group"}, {"Header", "header"},
	{"HeaderItem", "columnheader"}, {"Table", "table"}, {"TitleBar", "titlebar"},
	{"Separator", "separator"}, {"SemanticZoom", "list"}, {"AppBar", "toolbar"},
}

// ControlTypeName is the programmatic name of a control type id, or
// "ControlType" and the number for one newer than this table.
func ControlTypeName(id int32) string {
	if i := int(id) - ButtonControlTypeID; i >= 0 && i < len(controlTypes) {
		return controlTypes[i].name
	}
	return "ControlType" + strconv.Itoa(int(id))
}

// SegmentRole is the path segment role of an element: its control type's
// name, or PasswordEdit when UIA says it is a password field. Any control
// type with IsPassword counts, not only Edit: a custom-drawn field that
// reports Custom but protects its content is still a secret.
func SegmentRole(controlType int32, isPassword bool) string {
	if isPassword {
		return SegmentPassword
	}
	return ControlTypeName(controlType)
}

// Role maps a segment role to reprise's role vocabulary: a password field
// is a "textbox" (IsPassword tells it apart), a name outside the table
// comes back lower-cased.
func Role(segment string) string {
	if segment == SegmentPassword {
		return "textbox"
	}
	for _, ct := range controlTypes {
		if ct.name == segment {
			return ct.role
		}
	}
	return strings.ToLower(segment)
}

// roleOf is reprise's role for an element: a Win32 dialog box is a dialog
// though UIA calls it a Window.
func roleOf(segment, className string) string {
	if segment == "Window" && className == dialogClass {
		return "dialog"
	}
	return Role(segment)
}

// IsPassword reports whether an enrichment is of a password field, whose
// value a step must never carry (SPEC section 8).
func IsPassword(e *events.Enrichment) bool {
	return axpath.IsPassword(e, SegmentPassword)
}

// enrichment builds a step's enrichment from the path, window first; role
// is reprise's role of the last node.
func enrichment(nodes []axpath.Node, role, label, automationID string) *events.Enrichment {
	return axpath.Enrichment(nodes, role, label, automationID)
}

// HRESULT is a failed COM call's result code.
type HRESULT uint32

// Result codes UIA clients meet, named in errors.
var hresultNames = map[HRESULT]string{
	0x80004001: "E_NOTIMPL",
	0x80004002: "E_NOINTERFACE",
	0x80004003: "E_POINTER",
	0x80004005: "E_FAIL",
	0x80070005: "E_ACCESSDENIED",
	0x80070057: "E_INVALIDARG",
	0x8000FFFF: "E_UNEXPECTED",
	0x80040154: "REGDB_E_CLASSNOTREG",
	0x800401F0: "CO_E_NOTINITIALIZED",
	0x80010106: "RPC_E_CHANGED_MODE",
	0x80040200: "UIA_E_ELEMENTNOTENABLED",
	0x80040201: "UIA_E_ELEMENTNOTAVAILABLE",
	0x80040202: "UIA_E_NOCLICKABLEPOINT",
	0x80040203: "UIA_E_PROXYASSEMBLYNOTLOADED",
	0x80040204: "UIA_E_NOTSUPPORTED",
	0x80131505: "UIA_E_TIMEOUT",
	0x80131509: "UIA_E_INVALIDOPERATION",
}

func (h HRESULT) Error() string {
	if n, ok := hresultNames[h]; ok {
		return fmt.Sprintf("HRESULT 0x%08X (%s)", uint32(h), n)
	}
	return fmt.Sprintf("HRESULT 0x%08X", uint32(h))
}

// Result codes callers may branch on.
const (
	ENotImpl            HRESULT = 0x80004001
	ENoInterface        HRESULT = 0x80004002
	ElementNotAvailable HRESULT = 0x80040201 // UIA_E_ELEMENTNOTAVAILABLE: the element is gone
	ElementNotEnabled   HRESULT = 0x80040200 // UIA_E_ELEMENTNOTENABLED
)
