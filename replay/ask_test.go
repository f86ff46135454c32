package replay

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/skills"
)

// TestEngineAsksThePerson: an ask step's answer and a password field's
// reach the row's later steps, and neither reaches the log; a question not
// answered in time fails its row, and a run nobody can answer fails the
// rows that ask.
func TestEngineAsksThePerson(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, false)
	ctx := context.Background()
	sk := testSkill(false)
	sk.Steps = append(sk.Steps[:3:3],
		skills.Step{Action: skills.ActionAsk, Prompt: "the code sent to %email%", As: "code", Timeout: "100ms"},
		skills.Step{Action: "fill", Label: "Code", Value: "%code%"},
		skills.Step{Action: "fill", Label: "Password", Secret: true},
		sk.Steps[3])
	var mu sync.Mutex
	var asked []Question
	ask := func(ctx context.Context, q Question) (string, error) {
		mu.Lock()
		asked = append(asked, q)
		mu.Unlock()
		if q.Row == 2 && !q.Secret {
			<-ctx.Done() // nobody answers row 2's code
			return "", ctx.Err()
		}
		if q.Secret {
			return fmt.Sprintf("Pw-%d-Zebra", q.Row), nil
		}
		return fmt.Sprintf("C0de%d", q.Row), nil
	}
	s := typer{newSite()}
	p := plan("asks", sk, 3)
	stop, err := Serve(ctx, js, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Yes: true, Again: true, OnError: OnErrorSkip, Ask: ask})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 2 || got[OutcomeFailed] != 1 {
		t.Fatalf("outcomes %v", got)
	}
	if r := res.Rows[1]; r.Step != 3 || !strings.Contains(r.Reason, "step 4 (ask): no answer within 100ms") {
		t.Errorf("row 2 = %+v; want failed at its ask", r)
	}
	for _, n := range []int{1, 3} {
		if got := s.typed[n]; got["Code"] != fmt.Sprintf("C0de%d", n) || got["Password"] != fmt.Sprintf("Pw-%d-Zebra", n) {
			t.Errorf("row %d typed %v", n, got)
		}
	}
	if q := asked[0]; q.Prompt != "the code sent to row1@example.org" || q.Step != 4 || q.Secret {
		t.Errorf("the first question = %+v", q)
	}
	if q := asked[1]; !q.Secret || !strings.Contains(q.Prompt, `the password for "Password"`) || q.Wait != skills.AskTimeout {
		t.Errorf("the password question = %+v", q)
	}
	for _, secret := range []string{"C0de1", "Pw-1-Zebra", "C0de3", "Pw-3-Zebra"} {
		if n := logHolds(t, js, secret); n != 0 {
			t.Errorf("the log holds an answer (%s) in %d messages", secret, n)
		}
	}

	// Nobody to ask: the rows fail at the question, naming it.
	p = plan("nobody", sk, 1)
	stop2, err := Serve(ctx, js, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop2()
	res, err = Run(ctx, Options{JS: js, Plan: p, Executor: s, Yes: true, Again: true, OnError: OnErrorSkip})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[0]; r.Outcome != OutcomeFailed || !strings.Contains(r.Reason, "step 4 asks a person (ask), and nobody can answer this run") {
		t.Errorf("a run nobody can answer: %+v", r)
	}
	if typesSecrets(newSite()) || !typesSecrets(s) {
		t.Error("only an executor that says it types secrets is given one")
	}
}

// typer is the test site as an executor that types secrets, as the
// browser's does.
type typer struct{ *site }

func (typer) TypesSecrets() bool { return true }

// An ask step under an if asks only in the rows whose box is ticked; the
// others go on without a question.
func TestAskOnlyWhereTheRowSays(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, false)
	ctx := context.Background()
	sk := testSkill(false)
	sk.Parameters = append(sk.Parameters, skills.Parameter{Name: "review", Column: "Review", Type: skills.TypeBoolean})
	sk.Steps = append(sk.Steps[:3:3],
		skills.Step{Action: skills.ActionAsk, If: "%review%", Prompt: "the code for %email%", As: "code", Timeout: "1m"},
		skills.Step{Action: "fill", If: "%review%", Label: "Code", Value: "%code%"},
		sk.Steps[3])
	var mu sync.Mutex
	var asked []int
	ask := func(_ context.Context, q Question) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, q.Row)
		return fmt.Sprintf("C%d", q.Row), nil
	}
	s := typer{newSite()}
	p := plan("some-ask", sk, 3)
	for i := range p.Rows {
		p.Rows[i].Values["review"] = fmt.Sprint(i == 1)
	}
	stop, err := Serve(ctx, js, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Yes: true, Again: true, OnError: OnErrorSkip, Ask: ask})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 3 {
		t.Fatalf("outcomes %v; want 3 committed: %+v", got, res.Rows)
	}
	if len(asked) != 1 || asked[0] != 2 {
		t.Errorf("rows asked: %v; want row 2 alone", asked)
	}
	if got := s.typed[2]["Code"]; got != "C2" {
		t.Errorf("row 2 typed code %q; want C2", got)
	}
}
