package skills

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestFold(t *testing.T) {
	tests := []struct{ a, b string }{
		{"Côte d'Ivoire", "cote d'ivoire"},
		{"  COTE   D'IVOIRE: ", "côte d'ivoire"},
		{"Plan*", "plan"},
		{"Ångström", "angstrom"},
		{"São Paulo", "SAO PAULO"},
	}
	for _, tt := range tests {
		if Fold(tt.a) != Fold(tt.b) {
			t.Errorf("Fold(%q) = %q, Fold(%q) = %q; want them equal", tt.a, Fold(tt.a), tt.b, Fold(tt.b))
		}
	}
	if Fold("Pro") == Fold("Pro Plus") {
		t.Errorf("Fold makes Pro and Pro Plus one")
	}
}

func TestMapCell(t *testing.T) {
	plans := []Option{{Label: "Basic", Value: "basic"}, {Label: "Pro", Value: "pro"}, {Label: "Côte d'Ivoire", Value: "CI"}}
	enum := Parameter{Name: "plan", Type: events.ValueEnum, Options: map[string]string{"gold": "Pro"}}
	optional := enum
	optional.Optional = true
	boolean := Parameter{Name: "news", Type: TypeBoolean, Options: map[string]string{"oui": "true"}}
	text := Parameter{Name: "notes", Type: events.ValueText}
	tests := []struct {
		p       Parameter
		opts    []Option
		cell    string
		want    string
		wantErr error
	}{
		{enum, plans, "Pro", "Pro", nil},
		{enum, plans, "pro", "Pro", nil},
		{enum, plans, " PRO ", "Pro", nil},
		{enum, plans, "CI", "Côte d'Ivoire", nil},
		{enum, plans, "cote d'ivoire", "Côte d'Ivoire", nil},
		{enum, plans, "gold", "Pro", nil},
		{enum, plans, "GOLD", "Pro", nil},
		{enum, plans, "Enterprise", "", ErrNoOption},
		{enum, plans, "", "", ErrEmptyCell},
		{optional, plans, "", "", nil},
		{enum, nil, "Nevada", "Nevada", nil}, // an open list: matched live
		{boolean, nil, "yes", "true", nil},
		{boolean, nil, "N", "false", nil},
		{boolean, nil, "x", "true", nil},
		{boolean, nil, "", "false", nil},
		{boolean, nil, "Checked", "true", nil},
		{boolean, nil, "0", "false", nil},
		{boolean, nil, "oui", "true", nil},
		{boolean, nil, "maybe", "", ErrNotBool},
		{text, nil, "", "", ErrEmptyCell},
		{text, nil, "  Ada ", "Ada", nil},
	}
	for _, tt := range tests {
		got, err := tt.p.MapCell(tt.cell, tt.opts)
		if got != tt.want || !errors.Is(err, tt.wantErr) {
			t.Errorf("%s.MapCell(%q) = %q, %v; want %q, %v", tt.p.Name, tt.cell, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMatchOptionNeverGuesses(t *testing.T) {
	opts := []Option{{Label: "Resume"}, {Label: "Résumé"}}
	if o, ok := MatchOption("Résumé", opts); !ok || o.Label != "Résumé" {
		t.Errorf("MatchOption(exact) = %v, %v; want Résumé", o, ok)
	}
	if o, ok := MatchOption("RESUME", opts); ok {
		t.Errorf("MatchOption(RESUME) = %v; want no match: two options fold alike", o)
	}
}

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

func TestFormatDate(t *testing.T) {
	tests := []struct{ cell, format, want string }{
		{"1990-03-05", "MM/DD/YYYY", "03/05/1990"},
		{"1990-03-05", "M/D/YYYY", "3/5/1990"},
		{"1990-03-05", "D", "5"},
		{"1990-03-05", "DD", "05"},
		{"1990-03-05", "MMMM", "March"},
		{"1990-03-05", "MMM", "Mar"},
		{"1990-03-05", "YY", "90"},
		{"1990-03-05T10:30", "D MMMM YYYY", "5 March 1990"},
		{"1990-03-05", "DD.MM.YYYY", "05.03.1990"},
	}
	for _, tt := range tests {
		if got, err := FormatDate(tt.cell, tt.format); err != nil || got != tt.want {
			t.Errorf("FormatDate(%q, %q) = %q, %v; want %q", tt.cell, tt.format, got, err, tt.want)
		}
	}
	for _, bad := range []struct{ cell, format string }{{"03/05/1990", "D"}, {"1990-02-30", "D"}, {"1990-03-05", "at 2pm"}, {"1990-03-05", ""}} {
		if got, err := FormatDate(bad.cell, bad.format); err == nil {
			t.Errorf("FormatDate(%q, %q) = %q; want an error", bad.cell, bad.format, got)
		}
	}
	months := []Option{{Label: "January", Value: "1"}, {Label: "March", Value: "3"}}
	p := Parameter{Name: "month", Type: "date", Format: "MMMM"}
	if got, err := p.MapCell("1990-03-05", months); err != nil || got != "March" {
		t.Errorf("MapCell(month) = %q, %v; want March", got, err)
	}
	if _, err := p.MapCell("1990-02-05", months); !errors.Is(err, ErrNoOption) {
		t.Errorf("MapCell(a month the list lacks) = %v; want ErrNoOption", err)
	}
	if _, err := p.MapCell("05/03/1990", months); !errors.Is(err, ErrNotDate) {
		t.Errorf("MapCell(not ISO) = %v; want ErrNotDate", err)
	}
}

// TestDemonstrated: the rows the recordings filed by hand are the sample's
// rows they demonstrated, so replay can leave them alone.
func TestDemonstrated(t *testing.T) {
	recs, opts := loadCase(t, "testdata/generalize/choices_differ_answered")
	d, err := Generalize(recs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Demonstrated) != 2 {
		t.Fatalf("Demonstrated = %+v; want the two recordings' rows", d.Demonstrated)
	}
	want := []map[string]string{
		{"first_name": "Ada", "plan": "pro", "country": "FR", "newsletter": "yes", "state": "Nevada", "notes": "Prefers email", "middle_name": ""},
		{"first_name": "Robert", "plan": "basic", "country": "CI", "newsletter": "no", "state": "Ohio", "notes": "", "middle_name": "Lee"},
	}
	for k, dm := range d.Demonstrated {
		if dm.RecordingID != recs[k].RecordingID || !maps.Equal(dm.Cells, want[k]) {
			t.Errorf("Demonstrated[%d] = %+v; want %s %v", k, dm, recs[k].RecordingID, want[k])
		}
	}
}
