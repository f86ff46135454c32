package zoo

import "testing"

// TestListAndDateColumns: a list cell means a set of labels, whatever
// order the form stored them in; a date cell means a day, stored ISO.
func TestListAndDateColumns(t *testing.T) {
	list := listCol("tracks", "topics", ", ", []string{"Compilers", "Testing", "Mobile"})
	day := dateCol("day", "d", "January 2, 2006")
	for _, tc := range []struct {
		col       Column
		cell, got string
		same      bool
	}{
		{list, "Compilers, Testing", "Testing\nCompilers", true},
		{list, "Compilers, Testing", "Compilers\nTesting", true},
		{list, "Compilers,Testing", "Compilers\nTesting", true},
		{list, "Compilers, Testing", "Compilers", false},
		{list, "Compilers", "Compilers\nMobile", false},
		{list, "Compilers", "Compilers\nCompilers", false},
		{list, "", "", true},
		{list, "", "Mobile", false},
		{day, "March 5, 2027", "2027-03-05", true},
		{day, "March 5, 2027", "2027-03-06", false},
		{day, "March 5, 2027", "03/05/2027", false},
		{day, "March 5, 2027", "", false},
		{day, "", "", true},
	} {
		want, err := tc.col.expect(tc.cell)
		if err != nil {
			t.Fatalf("%s.expect(%q): %v", tc.col.Name, tc.cell, err)
		}
		if got := tc.col.same(want[tc.col.Fields[0]], tc.got); got != tc.same {
			t.Errorf("%s: cell %q, stored %q: same = %v; want %v", tc.col.Name, tc.cell, tc.got, got, tc.same)
		}
	}
	for _, cell := range []string{"Compilers, Cooking"} {
		if _, err := list.expect(cell); err == nil {
			t.Errorf("tracks.expect(%q) = nil error; want one for an unknown option", cell)
		}
	}
	if _, err := day.expect("2027-03-05"); err == nil {
		t.Errorf("day.expect(2027-03-05) = nil error; want one for another format")
	}
}
