package rows

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

func TestCheckValue(t *testing.T) {
	tests := []struct {
		typ, v string
		ok     bool
	}{
		{"text", "anything", true},
		{"enum", "Gold", true},
		{"file", "/tmp/a.pdf", true},
		{"text", "", false},
		{"enum", "  ", false},
		{"number", "1", true},
		{"number", "-3", true},
		{"number", "+0.5", true},
		{"number", ".5", true},
		{"number", "1,234.50", true},
		{"number", "1,234,567", true},
		{"number", "1e3", true},
		{"number", "2.5E-2", true},
		{"number", "1,5", false},
		{"number", "12,34", false},
		{"number", "1,2345", false},
		{"number", "1e999", false},
		{"number", "NaN", false},
		{"number", "Inf", false},
		{"number", "0x1p3", false},
		{"number", "1_000", false},
		{"number", "$5", false},
		{"number", ".", false},
		{"email", "a@example.com", true},
		{"email", "First.Last+tag@sub.example.org", true},
		{"email", "John <j@example.com>", false},
		{"email", "a@example.com, b@example.com", false},
		{"email", "not an email", false},
		{"email", "a@", false},
		{"date", "2025-02-28", true},
		{"date", "2024-02-29", true},
		{"date", "2025-02-28T13:45", true},
		{"date", "2025-02-28T13:45:10", true},
		{"date", "2025-02-30", false},
		{"date", "2025-2-3", false},
		{"date", "03/04/2025", false},
		{"date", "2025-02-28 13:45", false},
		{"secret", "x", false},
		{"list", "Fragile; Priority", true},
		{"list", " ", false},
	}
	for _, tt := range tests {
		got := checkValue(skills.Parameter{Type: tt.typ}, tt.v)
		if (got == "") != tt.ok {
			t.Errorf("checkValue(%q, %q) = %q; want ok=%v", tt.typ, tt.v, got, tt.ok)
		}
	}
}

// TestCheckWrittenDate: a date column read as the sample rows wrote it.
func TestCheckWrittenDate(t *testing.T) {
	tests := []struct {
		written, v string
		ok         bool
	}{
		{"MM/DD/YYYY", "03/15/2027", true},
		{"MM/DD/YYYY", "3/5/2027", true},
		{"MM/DD/YYYY", "15/03/2027", false},
		{"MM/DD/YYYY", "2027-03-15", false},
		{"DD.MM.YYYY", "15.03.2027", true},
		{"MMMM D, YYYY", "march 5, 2027", true},
		{"MMMM D, YYYY", "Marsh 5, 2027", false},
	}
	for _, tt := range tests {
		got := checkValue(skills.Parameter{Type: "date", Written: tt.written}, tt.v)
		if (got == "") != tt.ok {
			t.Errorf("checkValue(%q written %s) = %q; want ok=%v", tt.v, tt.written, got, tt.ok)
		}
	}
}

func TestRowCheck(t *testing.T) {
	r := Row{N: 7, Line: 9, Values: map[string]string{
		"name": "", "email": secret + "@", "amount": secret, "due": "2025-01-01",
	}}
	err := r.Check(testSkill())
	if !errors.Is(err, ErrBadValue) {
		t.Fatalf("Check() = %v; want %v", err, ErrBadValue)
	}
	msg := err.Error()
	if strings.Contains(msg, secret) {
		t.Errorf("Check() error %q holds a value", msg)
	}
	for _, w := range []string{
		`row 7 (line 9): parameter name (column "Name", type text) is empty`,
		`parameter email (column "E-mail", type email) is not an email`,
		`parameter amount (column "Amount", type number) is not a number`,
	} {
		if !strings.Contains(msg, w) {
			t.Errorf("Check() error %q does not say %q", msg, w)
		}
	}
	if strings.Contains(msg, "parameter due") {
		t.Errorf("Check() error %q blames a good date", msg)
	}
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Param != "name" {
		t.Errorf("errors.As(Check()) = %+v; want the name parameter first", ve)
	}

	good := Row{N: 1, Line: 2, Values: map[string]string{"name": "A", "email": "a@example.com", "amount": "1", "due": "2025-01-01"}}
	if err := good.Check(testSkill()); err != nil {
		t.Errorf("Check(good row) = %v; want nil", err)
	}
}

func TestRowFill(t *testing.T) {
	skill := &skills.Skill{
		Name: "choices",
		Parameters: []skills.Parameter{
			{Name: "email", Column: "E-mail", Type: "email"},
			{Name: "plan", Column: "Plan", Type: "enum", Options: map[string]string{"gold": "Enterprise"}},
			{Name: "news", Column: "News", Type: skills.TypeBoolean},
			{Name: "notes", Column: "Notes", Type: "text", Optional: true},
			{Name: "state", Column: "State", Type: "enum"},
		},
		Steps: []skills.Step{
			{Action: "select", Value: "%plan%", Options: []skills.Option{{Label: "Basic", Value: "b"}, {Label: "Pro", Value: "p"}, {Label: "Enterprise"}}},
			{Action: "select", Value: "%state%"}, // an open list: matched live
		},
	}
	tests := []struct {
		cells map[string]string
		want  map[string]string
		bad   []string // the parameters the error names
	}{
		{map[string]string{"email": "a@example.com", "plan": "p", "news": "yes", "notes": "", "state": "Nevada"},
			map[string]string{"email": "a@example.com", "plan": "Pro", "news": "true", "notes": "", "state": "Nevada"}, nil},
		{map[string]string{"email": "a@example.com", "plan": "GOLD", "news": "", "notes": "hi", "state": "Ohio"},
			map[string]string{"email": "a@example.com", "plan": "Enterprise", "news": "false", "notes": "hi", "state": "Ohio"}, nil},
		{map[string]string{"email": "a@example.com", "plan": secret, "news": secret, "notes": "", "state": ""},
			nil, []string{"parameter plan", "parameter news", "parameter state"}},
	}
	for i, tt := range tests {
		got, err := Row{N: i + 1, Line: i + 2, Values: tt.cells}.Fill(skill)
		if tt.bad == nil {
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Fill(%v) = %v, %v; want %v", tt.cells, got, err, tt.want)
			}
			continue
		}
		if err == nil || got != nil {
			t.Fatalf("Fill(%v) = %v, %v; want an error", tt.cells, got, err)
		}
		for _, b := range tt.bad {
			if !strings.Contains(err.Error(), b) {
				t.Errorf("Fill error %q does not name %s", err, b)
			}
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("Fill error %q quotes the cell", err)
		}
		if !strings.Contains(err.Error(), `"Basic", "Pro", "Enterprise"`) {
			t.Errorf("Fill error %q does not name the options", err)
		}
	}
}

// TestListCell: a list cell becomes its options, one per line; an item
// that names no option refuses the row, naming the line, the column and
// the item's place, never the item.
func TestListCell(t *testing.T) {
	s := &skills.Skill{
		Parameters: []skills.Parameter{{Name: "tags", Column: "Tags", Type: skills.TypeList, Separator: ";"}},
		Steps: []skills.Step{{Action: "select", Value: "%tags%", Multiple: true,
			Options: []skills.Option{{Label: "Fragile"}, {Label: "Priority"}, {Label: "Gift wrap", Value: "gift"}}}},
	}
	tests := []struct {
		cell, want, problem string
	}{
		{"Fragile; priority", "Fragile\nPriority", ""},
		{" gift ;Fragile; ;Fragile", "Gift wrap\nFragile", ""},
		{"Fragile; Breakable", "", `row 4 (line 5): parameter tags (column "Tags", type list) item 2 of the list (split by ";") matches none of the options`},
		{"  ", "", "is empty"},
	}
	for _, tt := range tests {
		got, err := Row{N: 4, Line: 5, Values: map[string]string{"tags": tt.cell}}.Fill(s)
		switch {
		case tt.problem == "" && err != nil:
			t.Errorf("Fill(%q) = %v", tt.cell, err)
		case tt.problem == "" && got["tags"] != tt.want:
			t.Errorf("Fill(%q) = %q; want %q", tt.cell, got["tags"], tt.want)
		case tt.problem != "" && (err == nil || !strings.Contains(err.Error(), tt.problem)):
			t.Errorf("Fill(%q) = %v; want an error saying %q", tt.cell, err, tt.problem)
		case err != nil && strings.Contains(err.Error(), "Breakable"):
			t.Errorf("Fill error quotes the cell: %v", err)
		}
	}
}
