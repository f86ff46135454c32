package uia

import "testing"

func TestChoiceKind(t *testing.T) {
	for _, tc := range []struct{ role, want string }{
		{"combobox", ChoiceCombo}, {"list", ChoiceList}, {"listbox", ChoiceList}, {"checkbox", ChoiceCheck},
		{"button", ChoiceNone}, {"textbox", ChoiceNone}, {"listitem", ChoiceNone},
	} {
		if got := ChoiceKind(tc.role); got != tc.want {
			t.Errorf("ChoiceKind(%q) = %q; want %q", tc.role, got, tc.want)
		}
	}
}
