package cells

import (
	"errors"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

func TestMapCell(t *testing.T) {
	plans := []skills.Option{{Label: "Basic", Value: "basic"}, {Label: "Pro", Value: "pro"}, {Label: "Côte d'Ivoire", Value: "CI"}}
	enum := skills.Parameter{Name: "plan", Type: events.ValueEnum, Options: map[string]string{"gold": "Pro"}}
	optional := enum
	optional.Optional = true
	boolean := skills.Parameter{Name: "news", Type: skills.TypeBoolean, Options: map[string]string{"oui": "true"}}
	text := skills.Parameter{Name: "notes", Type: events.ValueText}
	tests := []struct {
		p       skills.Parameter
		opts    []skills.Option
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
		got, err := Map(tt.p, tt.cell, tt.opts)
		if got != tt.want || !errors.Is(err, tt.wantErr) {
			t.Errorf("Map(%s, %q) = %q, %v; want %q, %v", tt.p.Name, tt.cell, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMatchOptionNeverGuesses(t *testing.T) {
	opts := []skills.Option{{Label: "Resume"}, {Label: "Résumé"}}
	if o, ok := MatchOption("Résumé", opts); !ok || o.Label != "Résumé" {
		t.Errorf("MatchOption(exact) = %v, %v; want Résumé", o, ok)
	}
	if o, ok := MatchOption("RESUME", opts); ok {
		t.Errorf("MatchOption(RESUME) = %v; want no match: two options read alike loosely", o)
	}
}

// TestMapCellDatePart: a part of a date maps onto the option that writes it.
func TestMapCellDatePart(t *testing.T) {
	months := []skills.Option{{Label: "January", Value: "1"}, {Label: "March", Value: "3"}}
	p := skills.Parameter{Name: "month", Type: "date", Format: "MMMM"}
	if got, err := Map(p, "1990-03-05", months); err != nil || got != "March" {
		t.Errorf("Map(month) = %q, %v; want March", got, err)
	}
	if _, err := Map(p, "1990-02-05", months); !errors.Is(err, ErrNoOption) {
		t.Errorf("Map(a month the list lacks) = %v; want ErrNoOption", err)
	}
	if _, err := Map(p, "05/03/1990", months); !errors.Is(err, skills.ErrNotDate) {
		t.Errorf("Map(not ISO) = %v; want ErrNotDate", err)
	}
}
