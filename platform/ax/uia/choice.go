package uia

// Choice kinds: how UI Automation reads and sets a choice control (see
// ChoiceKind).
const (
	ChoiceNone  = ""
	ChoiceCombo = "combo" // ExpandCollapse to show the items, SelectionItem.Select on one, Value to read
	ChoiceList  = "list"  // SelectionItem on the item; IsSelected to read
	ChoiceCheck = "check" // Toggle; ToggleState to read
)

// ChoiceKind is how a choice control of reprise role role is read and set
// through UI Automation's patterns; ChoiceNone for an element that is no
// choice control.
func ChoiceKind(role string) string {
	switch role {
	case "combobox":
		return ChoiceCombo
	case "list", "listbox", "tree", "table", "datagrid":
		return ChoiceList
	case "checkbox", "switch":
		return ChoiceCheck
	}
	return ChoiceNone
}

// Choice is a choice control as Client.Choice reads it.
type Choice struct {
	Kind     string
	Options  []string // the items' names, in order
	Selected string   // the selected item's name, "" for none
	Checked  bool     // a check box's ToggleState is On
}
