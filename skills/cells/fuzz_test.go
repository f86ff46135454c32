package cells

import (
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

// FuzzMapCell checks that a cell maps to one of the options, a boolean
// state, itself, or an error: never anything else.
func FuzzMapCell(f *testing.F) {
	f.Add("pro", "Pro", "p", false, false)
	f.Add("CÔTE", "Côte d'Ivoire", "CI", true, false)
	f.Add("yes", "", "", false, true)
	f.Fuzz(func(t *testing.T, cell, label, value string, optional, boolean bool) {
		p := skills.Parameter{Name: "p", Type: "enum", Optional: optional}
		if boolean {
			p.Type = skills.TypeBoolean
		}
		opts := []skills.Option{{Label: label, Value: value}, {Label: "Other"}}
		got, err := Map(p, cell, opts)
		if err != nil {
			return
		}
		switch {
		case boolean && got != "true" && got != "false":
			t.Fatalf("Map(%q) = %q for a boolean", cell, got)
		case !boolean && got != "" && got != label && got != value && got != "Other":
			t.Fatalf("Map(%q) = %q; want an option's label", cell, got)
		case got == "" && !optional && !boolean:
			t.Fatalf("Map(%q) = empty for a required parameter", cell)
		}
	})
}
