package axpath

import "strings"

// Choice kinds ChoiceOn finds.
const (
	ChoiceCombo = "combo"
	ChoiceList  = "list"
	ChoiceCheck = "check"
)

// Role names of choice controls and their options in every tree's
// vocabulary (AT-SPI, UI Automation, MSAA, AX), compared folded (lower
// case, no spaces).
var (
	comboRoles  = map[string]bool{"combobox": true, "axcombobox": true, "axpopupbutton": true}
	listRoles   = map[string]bool{"listbox": true, "list": true, "tree": true, "treetable": true, "datagrid": true, "axlist": true, "axoutline": true, "axtable": true}
	optionRoles = map[string]bool{"menuitem": true, "listitem": true, "dataitem": true, "treeitem": true, "tablerow": true, "axrow": true, "axmenuitem": true, "axcell": true, "radiomenuitem": true}
	checkRoles  = map[string]bool{"checkbox": true, "checkbutton": true, "togglebutton": true, "checkmenuitem": true, "switch": true, "axcheckbox": true}
)

func fold(role string) string { return strings.ToLower(strings.ReplaceAll(role, " ", "")) }

// ChoiceOn reads the path of the element a press landed on (window first)
// as a choice: the index of the choice control on it (a check box, a combo
// box, a list) and, for a press on one of a combo box's or a list's
// options, the option's index; option is -1 for a press on the control
// itself. A combo box's options may sit in a popup list or menu under it.
// ok is false when the element is no choice control and in none: the
// deepest element and its four nearest ancestors are looked at.
func ChoiceOn(nodes []Node) (kind string, control, option int, ok bool) {
	last := len(nodes) - 1
	first := max(last-4, 0)
	for i := last; i >= first && i >= last-1; i-- {
		if checkRoles[fold(nodes[i].Role)] {
			return ChoiceCheck, i, -1, true
		}
	}
	// A combo box first: its popup may be a list of its own.
	for i := last; i >= first; i-- {
		if comboRoles[fold(nodes[i].Role)] {
			option = -1
			for k := i + 1; k <= last; k++ {
				if optionRoles[fold(nodes[k].Role)] {
					option = k
					break
				}
			}
			return ChoiceCombo, i, option, true
		}
	}
	for i := last - 1; i >= first; i-- {
		if listRoles[fold(nodes[i].Role)] && optionRoles[fold(nodes[i+1].Role)] {
			return ChoiceList, i, i + 1, true
		}
	}
	return "", -1, -1, false
}
