package replay

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/reprise-dev/reprise/skills"
)

// Question is what an ask step, or a secret field, asks the person while
// its row waits with the browser open.
type Question struct {
	RunID  string
	Row    int
	Step   int // from 1
	Prompt string
	// Secret says the answer is a password: read it without echo.
	Secret bool
	// Wait is how long the row waits; the asker's ctx ends then.
	Wait time.Duration
}

// Answer is what `reprise runs answer` sends, sealed under the question's
// AskKey, on its Subject (core NATS request and reply, never stored, so an
// answer reaches no log); Row 0 answers whichever row is asking.
type Answer struct {
	Row    int    `json:"row,omitempty"`
	Answer string `json:"answer"`
}

// AnswerReply says which question an Answer answered, or why none. The
// run seals it (AskKey.SealReply) when the answer opened; a plain one only
// says that the answer was not accepted, and proves nothing.
type AnswerReply struct {
	Row   int    `json:"row,omitempty"`
	Step  int    `json:"step,omitempty"`
	Error string `json:"error,omitempty"`
}

// askFor asks the person st's question for row r, and keeps the answer
// for the row's later steps (Plan.answers): an ask step's under its As
// name, a secret field's under skills.AnswerName. It returns an Outcome:
// OK, or why the row cannot go on (nobody can answer, no answer in time).
func (e *engine) askFor(ctx context.Context, r Row, i int, st skills.Step) (Outcome, error) {
	q := Question{RunID: e.Plan.RunID, Row: r.N, Step: i + 1, Wait: st.AskWait(), Secret: st.Secret}
	name := st.As
	if st.Secret {
		q.Prompt = fmt.Sprintf("the password for %q, which the skill never stores", st.Label)
		name = skills.AnswerName(i)
	} else {
		prompt, err := skills.Expand(st.Prompt, e.Plan.values(r))
		if err != nil {
			return Outcome{Error: fmt.Sprintf("step %d (ask): %v", i+1, err)}, nil
		}
		q.Prompt = prompt
	}
	if e.Ask == nil {
		return Outcome{Error: fmt.Sprintf("step %d asks a person (%s), and nobody can answer this run: run it where a person can answer its questions", i+1, st.Action)}, nil
	}
	actx, cancel := context.WithTimeout(ctx, q.Wait)
	defer cancel()
	answer, err := e.Ask(actx, q)
	switch {
	case ctx.Err() != nil:
		return Outcome{}, ctx.Err()
	case errors.Is(err, context.DeadlineExceeded):
		return Outcome{Error: fmt.Sprintf("step %d (%s): no answer within %s", i+1, st.Action, q.Wait)}, nil
	case err != nil:
		return Outcome{Error: fmt.Sprintf("step %d (%s): %v", i+1, st.Action, err)}, nil
	}
	e.Plan.keepAnswer(r.N, name, answer)
	return Outcome{OK: true}, nil
}

// runsIn says whether step st runs in row r: it has no if, or the row's
// boolean cell it names is true.
func (p *Plan) runsIn(r Row, st skills.Step) bool {
	if st.If == "" {
		return true
	}
	v, err := skills.Expand(st.If, p.values(r))
	return err == nil && v == "true"
}

// SecretTyper is an Executor that types a password the person gave for a
// secret step (the browser's). An executor that is not one hands the step
// to the person instead (ErrNeedsPerson), and the engine asks nothing.
type SecretTyper interface {
	TypesSecrets() bool
}

func typesSecrets(x Executor) bool {
	t, ok := x.(SecretTyper)
	return ok && t.TypesSecrets()
}

// keepAnswer keeps a person's answer for row n's later steps, in memory.
func (p *Plan) keepAnswer(n int, name, value string) {
	a, _ := p.answers.Load(n)
	m, _ := a.(map[string]string)
	m = maps.Clone(m)
	if m == nil {
		m = map[string]string{}
	}
	m[name] = value
	p.answers.Store(n, m)
}

// rowAnswers are row n's answers so far.
func (p *Plan) rowAnswers(n int) map[string]string {
	a, _ := p.answers.Load(n)
	m, _ := a.(map[string]string)
	return m
}

// values are row r's cells with its answers so far.
func (p *Plan) values(r Row) map[string]string {
	ans := p.rowAnswers(r.N)
	if len(ans) == 0 {
		return r.Values
	}
	v := maps.Clone(r.Values)
	if v == nil {
		v = map[string]string{}
	}
	maps.Copy(v, ans)
	return v
}
