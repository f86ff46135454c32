package uia

import (
	"fmt"

	"github.com/reprise-dev/reprise/events"
)

// Pattern is a UIA control pattern id (module UIA_PatternIds in
// UIAutomationClient.h).
type Pattern int32

// The patterns the executor uses.
const (
	InvokePattern         Pattern = 10000
	ValuePattern          Pattern = 10002
	ExpandCollapsePattern Pattern = 10005
	SelectionItemPattern  Pattern = 10010
	TogglePattern         Pattern = 10015
)

func (p Pattern) String() string {
	switch p {
	case InvokePattern:
		return "Invoke"
	case ValuePattern:
		return "Value"
	case ExpandCollapsePattern:
		return "ExpandCollapse"
	case SelectionItemPattern:
		return "SelectionItem"
	case TogglePattern:
		return "Toggle"
	}
	return fmt.Sprintf("Pattern(%d)", int32(p))
}

// PatternFor is the pattern that carries out a recorded step's action on
// an element of reprise role role: Value for a fill; for a click, submit or
// select, Invoke on a button, link or menu item, Toggle on a checkbox,
// SelectionItem on a radio button, list or tree item or tab, and
// ExpandCollapse on a combo box (a select then picks the item by name).
// ok is false for a click into a text field, which only gives it the
// focus, and for an action no pattern carries out.
func PatternFor(action, role string) (p Pattern, ok bool) {
	switch action {
	case events.ActionFill:
		return ValuePattern, true
	case events.ActionClick, events.ActionSubmit, events.ActionSelect:
	default:
		return 0, false
	}
	switch role {
	case "textbox":
		return 0, false
	case "checkbox":
		return TogglePattern, true
	case "radio", "listitem", "treeitem", "tab", "row":
		return SelectionItemPattern, true
	case "combobox":
		return ExpandCollapsePattern, true
	}
	// Buttons, links and menu items, and whatever else may be invokable:
	// an element without the pattern says so, and the floor goes next.
	return InvokePattern, true
}

// ToggleValue is how a checkbox's UIA ToggleState (Off 0, On 1,
// Indeterminate 2) reads back: "unchecked", "checked" or "mixed", the words
// a recorded checkbox step's value uses.
func ToggleValue(state int32) string {
	switch state {
	case 0:
		return "unchecked"
	case 1:
		return "checked"
	}
	return "mixed"
}

// Integrity is a process's mandatory integrity level: the last
// sub-authority of its token's integrity SID.
type Integrity uint32

// The well-known integrity levels (winnt.h SECURITY_MANDATORY_*_RID).
const (
	Untrusted  Integrity = 0x0000
	Low        Integrity = 0x1000
	Medium     Integrity = 0x2000
	MediumPlus Integrity = 0x2100
	High       Integrity = 0x3000
	System     Integrity = 0x4000
)

func (i Integrity) String() string {
	switch i {
	case Untrusted:
		return "untrusted"
	case Low:
		return "low"
	case Medium:
		return "medium"
	case MediumPlus:
		return "medium-plus"
	case High:
		return "high"
	case System:
		return "system"
	}
	return fmt.Sprintf("integrity 0x%04X", uint32(i))
}

// RefuseHigher returns an error naming app when its integrity level
// (theirs) is above ours: Windows blocks input into a higher-integrity
// window (UIPI), so the executor must refuse rather than act and have
// nothing happen.
func RefuseHigher(ours, theirs Integrity, app string) error {
	if theirs <= ours {
		return nil
	}
	if app == "" {
		app = "the target app"
	}
	return fmt.Errorf("uia: %s runs at %s integrity, above reprise's %s: Windows blocks input into it "+
		"(UIPI); run reprise elevated too, or run %s unelevated", app, theirs, ours, app)
}
