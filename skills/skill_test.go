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

// A boolean column that only decides which steps run is a used one: the
// row's cell changes what is filed.
func TestParameterUsedOnlyAsACondition(t *testing.T) {
	doc := `version: 1
name: review
parameters:
  - {name: email, column: Email, type: email}
  - {name: review, column: Review, type: boolean}
dedupe_key: [email]
steps:
  - action: navigate
    value: https://app.example.test/new
  - action: ask
    if: "%review%"
    prompt: the code for %email%
    as: code
  - action: fill
    label: Code
    if: "%review%"
    value: "%code%"
`
	if _, err := Parse([]byte(doc)); err != nil {
		t.Errorf("Parse = %v; want a skill whose review column is used by its steps' conditions", err)
	}
}
