package copilot

import (
	"context"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills/learn"
)

// person answers from maps, by label and question.
type person struct {
	varies  map[string]bool
	columns map[string]string
	free    map[string]string
	offered []string // the default column offered, per Column
}

func (p *person) Answer(q ops.Question) (string, error) {
	a, ok := p.free[q.Parameter]
	if !ok {
		return "", errors.New("no answer")
	}
	return a, nil
}

func (p *person) Varies(label string) (bool, error) { return p.varies[label], nil }

func (p *person) Column(label, def string, _ []string) (string, error) {
	p.offered = append(p.offered, def)
	return p.columns[label], nil
}

func TestAnswers(t *testing.T) {
	t.Parallel()
	qs := []ops.Question{
		{Parameter: "company", Label: "Company", Kind: string(learn.AskParameter)},
		{Parameter: "first", Label: "First name", Kind: string(learn.AskSameValue), Columns: []string{"First"}},
		{Parameter: "city", Kind: string(learn.AskAmbiguous)},
		{Parameter: "odd", Label: "Odd", Kind: string(learn.AskMissingColumn)},
		{Parameter: "plan/gold", Kind: "option", Text: "Which option does gold mean?"},
	}
	p := &person{
		varies:  map[string]bool{"Company": false, "First name": true},
		columns: map[string]string{"First name": "First", "city": "Town", "Odd": learn.ConstAnswer},
		free:    map[string]string{"plan/gold": "Enterprise"},
	}
	got, err := Answers(qs, nil, p)
	want := map[string]string{"company": learn.ConstAnswer, "first": "First", "city": "Town", "odd": learn.ColumnPrefix + learn.ConstAnswer, "plan/gold": "Enterprise"}
	if err != nil || !maps.Equal(got, want) {
		t.Errorf("Answers() = %v, %v; want %v", got, err, want)
	}
	if wantOffered := []string{"First", "city", "Odd"}; !slices.Equal(p.offered, wantOffered) {
		t.Errorf("Column offered %q; want %q (the likely column, else the label)", p.offered, wantOffered)
	}
	if _, err := Answers([]ops.Question{{Parameter: "x", Kind: "success"}}, nil, &person{}); err == nil {
		t.Error("Answers() with the person not answering = nil error; want theirs")
	}
}

// drafts raises one question per round for the first rounds, then none.
type drafts struct {
	rounds    int
	drafted   int
	confirmed []map[string]string
}

func (d *drafts) DraftSkill(context.Context, api.SkillBuildRequest) (api.SkillBuildReply, error) {
	d.drafted++
	if d.drafted > d.rounds {
		return api.SkillBuildReply{}, nil
	}
	return api.SkillBuildReply{Questions: []ops.Question{{Parameter: "p", Kind: string(learn.AskParameter)}}}, nil
}

func (d *drafts) ConfirmAnswers(_ context.Context, req api.SkillConfirmRequest) (api.SkillConfirmReply, error) {
	d.confirmed = append(d.confirmed, req.Answers)
	return api.SkillConfirmReply{}, nil
}

func TestClarify(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rounds, confirmed int
		asked             bool
	}{
		{0, 0, false},
		{2, 2, true},
		{MaxRounds + 3, MaxRounds, true}, // an answer that always raises another stops
	} {
		d := &drafts{rounds: tc.rounds}
		asked, err := Clarify(context.Background(), d, &person{}, "rec_1", nil, nil)
		if err != nil || asked != tc.asked || len(d.confirmed) != tc.confirmed {
			t.Errorf("Clarify(%d rounds of questions) = %v, %v, %d confirmed; want %v, %d", tc.rounds, asked, err, len(d.confirmed), tc.asked, tc.confirmed)
		}
	}
}
