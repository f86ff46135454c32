package axpath

import "testing"

func TestChoiceOn(t *testing.T) {
	for _, tc := range []struct {
		path            string
		kind            string
		control, option int
	}{
		// AT-SPI (GTK): a popup's menu item under its combo box, a list
		// box row's label, a check box.
		{"frame[Order]/panel/combo box/menu/menu item[Germany]", ChoiceCombo, 2, 4},
		{"frame[Order]/panel/combo box", ChoiceCombo, 2, -1},
		{"frame[Order]/panel/list box/list item/label[Standard]", ChoiceList, 2, 3},
		{"frame[Order]/panel/check box[Newsletter]", ChoiceCheck, 2, -1},
		// UI Automation (Win32): the drop-down list under its ComboBox.
		{"Window[Order]/ComboBox[Country]/List/ListItem[Germany]", ChoiceCombo, 1, 3},
		{"Window[Order]/List[Plan]/ListItem[Standard]", ChoiceList, 1, 2},
		{"Window[Order]/CheckBox[Newsletter]", ChoiceCheck, 1, -1},
		// MSAA (Windows, Wine): the same, in its role names.
		{"window[Order]/client/combo box[Country]/list/list item[Germany]", ChoiceCombo, 2, 4},
		{"window[Order]/client/check button[Newsletter]", ChoiceCheck, 2, -1},
		// AX (macOS): a pop-up button's menu item.
		{"AXWindow[Order]/AXPopUpButton[Country]/AXMenu/AXMenuItem[Germany]", ChoiceCombo, 1, 3},
		// No choice: a button, a text field, an empty list's space.
		{"frame[Order]/panel/push button[Save]", "", -1, -1},
		{"frame[Order]/panel/text", "", -1, -1},
		{"frame[Order]/panel/list box", "", -1, -1},
		// A check box far above the element is not what was pressed.
		{"frame[Order]/check box[Advanced]/panel/panel/push button[Save]", "", -1, -1},
	} {
		kind, control, option, ok := ChoiceOn(Parse(tc.path))
		if kind != tc.kind || control != tc.control || option != tc.option || ok != (tc.kind != "") {
			t.Errorf("ChoiceOn(%q) = %q, %d, %d, %v; want %q, %d, %d", tc.path, kind, control, option, ok, tc.kind, tc.control, tc.option)
		}
	}
}
