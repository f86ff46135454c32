package pick

import (
	"context"
	"errors"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

func TestKind(t *testing.T) {
	web := &skills.Skill{Steps: []skills.Step{{Action: events.ActionNavigate}}}
	selectors := &skills.Skill{Steps: []skills.Step{{Action: events.ActionClick, Selectors: []skills.Selector{{Strategy: "css", Value: "#go"}}}}}
	desk := &skills.Skill{Steps: []skills.Step{{Action: events.ActionClick}}}
	tests := []struct {
		kind  string
		skill *skills.Skill
		want  string
	}{
		{Auto, web, Browser},
		{"", web, Browser},
		{Auto, selectors, Browser},
		{Auto, desk, Desktop},
		{Browser, desk, Browser},
		{Desktop, web, Desktop},
	}
	for _, tt := range tests {
		if got, err := Kind(tt.kind, tt.skill); got != tt.want || err != nil {
			t.Errorf("Kind(%q, %v) = %q, %v; want %q", tt.kind, tt.skill.Steps[0].Action, got, err, tt.want)
		}
	}
	if got, err := Kind("robot", web); !errors.Is(err, ErrKind) {
		t.Errorf("Kind(%q) = %q, %v; want ErrKind", "robot", got, err)
	}
	if ex, err := New(context.Background(), web, Options{Kind: "robot"}); !errors.Is(err, ErrKind) || ex != nil {
		t.Errorf("New(kind robot) = %v, %v; want ErrKind", ex, err)
	}
}
