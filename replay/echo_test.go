package replay

import (
	"slices"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

// A destructive step's echo keeps the row's values a page shows as typed
// (text, email, number), each with the placeholder it came from; choices
// and dates, which a page may show otherwise, and empty values are not
// checked.
func TestEchoes(t *testing.T) {
	p := &Plan{Skill: &skills.Skill{Parameters: []skills.Parameter{
		{Name: "name", Type: "text"}, {Name: "email", Type: "email"}, {Name: "qty", Type: "number"},
		{Name: "country", Type: "enum"}, {Name: "since", Type: "date"}, {Name: "note", Type: "text", Optional: true},
	}}}
	values := map[string]string{"name": "Ada", "email": "ada@example.org", "qty": "3", "country": "fr", "since": "2024-03-01", "note": ""}
	got, of := p.echoes([]string{"%name%", "%country%", "%email%", "%since%", "%qty%", "%note%", "%name% %email%"}, values)
	if want := []string{"Ada", "ada@example.org", "3"}; !slices.Equal(got, want) {
		t.Errorf("echoes = %q; want %q", got, want)
	}
	if want := []string{"%name%", "%email%", "%qty%"}; !slices.Equal(of, want) {
		t.Errorf("from = %q; want %q", of, want)
	}
	if got, of := p.echoes(nil, values); got != nil || of != nil {
		t.Errorf("no echo = %q %q; want none", got, of)
	}
}
