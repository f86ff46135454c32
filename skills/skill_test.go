package skills

import (
	"errors"
	"testing"
)

func TestCheckHeader(t *testing.T) {
	s := &Skill{Parameters: []Parameter{{Name: "first_name", Column: "First Name"}, {Name: "zip", Column: "Zip"}}}
	if err := s.CheckHeader([]string{"First Name", " Zip "}); err != nil {
		t.Errorf("CheckHeader(complete) = %v; want nil", err)
	}
	err := s.CheckHeader([]string{"First Name", "City"})
	want := `missing CSV column: the CSV has no column for zip (column "Zip"); its columns are "First Name", "City": rename the CSV column or rebuild the skill`
	if !errors.Is(err, ErrMissingColumn) || err.Error() != want {
		t.Errorf("CheckHeader = %v; want %s", err, want)
	}
}
