// Package copilot asks the questions one demonstration cannot answer (does
// this field change on every run, which column holds it) after a co-pilot
// recording stops, and keeps the answers on the recording, where a skill
// build reads them. What the person sees and types is a Person's: Terminal
// for `reprise copilot`.
package copilot

import (
	"context"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills/learn"
)

// MaxRounds bounds the rounds of questions: each answers what the last
// raised.
const MaxRounds = 5

// Person answers a draft's questions. An error (the person stopped
// answering) ends the questions and leaves them open.
type Person interface {
	// Answer reads the answer to a question that says its own answers
	// (options, empty cells, columns, fields, success), as typed.
	Answer(q ops.Question) (string, error)
	// Varies asks whether the field label changes on every run.
	Varies(label string) (bool, error)
	// Column asks which column of the CSV holds label, offering def; header
	// is the sample's columns, or nil when no sample was given.
	Column(label, def string, header []string) (string, error)
}

// Drafts drafts a skill from recordings and keeps answers on a recording:
// the daemon's skill book, through its client.
type Drafts interface {
	DraftSkill(context.Context, api.SkillBuildRequest) (api.SkillBuildReply, error)
	ConfirmAnswers(context.Context, api.SkillConfirmRequest) (api.SkillConfirmReply, error)
}

// Clarify puts the questions of recording id's draft to the person and
// keeps their answers on the recording, until the draft has none open (an
// answer may raise the next question: a field said to be the same for every
// row leaves its CSV column to account for), at most MaxRounds times.
// header and sample are the CSV's columns and first rows, when given. asked
// reports whether there was anything to ask.
func Clarify(ctx context.Context, d Drafts, p Person, id string, header []string, sample [][]string) (asked bool, err error) {
	for range MaxRounds {
		draft, err := d.DraftSkill(ctx, api.SkillBuildRequest{Recordings: []string{id}, Header: header, SampleRows: sample})
		if err != nil {
			return asked, err
		}
		if len(draft.Questions) == 0 {
			break
		}
		answers, err := Answers(draft.Questions, header, p)
		if err != nil {
			return asked, err
		}
		if _, err := d.ConfirmAnswers(ctx, api.SkillConfirmRequest{RecordingID: id, Answers: answers}); err != nil {
			return asked, err
		}
		asked = true
	}
	return asked, nil
}

// Answers puts each question to the person and returns their answers in
// learn.ParseConfirm's terms: a parameter that does not change is
// learn.ConstAnswer, one that does is its column.
func Answers(qs []ops.Question, header []string, p Person) (map[string]string, error) {
	answers := map[string]string{}
	for _, q := range qs {
		label := q.Label
		if label == "" {
			label = q.Parameter
		}
		switch learn.QuestionKind(q.Kind) {
		case learn.AskParameter, learn.AskSameValue:
			varies, err := p.Varies(label)
			if err != nil {
				return nil, err
			}
			if !varies {
				answers[q.Parameter] = learn.ConstAnswer
				continue
			}
		case learn.AskAmbiguous, learn.AskMissingColumn, learn.AskRedacted:
		default:
			a, err := p.Answer(q)
			if err != nil {
				return nil, err
			}
			answers[q.Parameter] = a
			continue
		}
		def := label
		if len(q.Columns) > 0 {
			def = q.Columns[0]
		}
		col, err := p.Column(label, def, header)
		if err != nil {
			return nil, err
		}
		if col == learn.ConstAnswer {
			// A column named "const" is that column, not the constant.
			col = learn.ColumnPrefix + col
		}
		answers[q.Parameter] = col
	}
	return answers, nil
}
