package skills

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	s, err := Parse(readFile(t, "testdata/parse/choices.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(Summary(s), "\n")
	for _, want := range []string{
		`plan: column "Plan", enum, one of "Basic", "Pro", "Enterprise" ("gold" means "Enterprise", "silver" means "Pro")`,
		`newsletter: column "Newsletter", boolean ("oui" means "true")`,
		`notes: column "Notes", text; optional: an empty cell leaves it empty`,
		`column "internal_note": ignored`,
		`step 6 (click "Save") files the row; success: the text "Customer created" appears; the URL stays the same; the site answers the request with success (within 12s)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Summary() =\n%s\nwant a line %q", got, want)
		}
	}
}
