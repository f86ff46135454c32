// Package replaytest is the conformance suite every replay.Executor must
// pass, whatever it drives: the contract the engine relies on, checked
// without knowing the target's UI.
package replaytest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// Target is what the suite needs of a target: an executor on it, and the
// step that opens something it can act on (a navigate to a page, a window
// to focus), where no element is labelled "reprise-conformance-nothing".
type Target struct {
	New  func(t *testing.T) replay.Executor
	Open skills.Step
}

// distinctive is a value no target shows; it must never come back in an
// outcome (outcomes go to the log).
const distinctive = "QUOKKA-4471-conformance"

// Run runs the suite.
func Run(t *testing.T, target Target) {
	ctx := context.Background()
	nothing := []skills.Selector{{Strategy: "label", Value: "reprise-conformance-nothing"}, {Strategy: "name", Value: "reprise_conformance_nothing"}}

	t.Run("OpeningNeedsNoElement", func(t *testing.T) {
		ex := target.New(t)
		out, err := ex.Do(ctx, replay.Step{Row: 1, Step: target.Open})
		if err != nil || !out.OK {
			t.Fatalf("%s = %+v, %v; want ok", target.Open.Action, out, err)
		}
	})
	t.Run("NothingMatchesIsAnOutcomeNamingEverySelector", func(t *testing.T) {
		ex := target.New(t)
		open(t, ex, target.Open)
		out, err := ex.Do(ctx, replay.Step{Row: 1, Index: 3, Step: skills.Step{Action: "fill", Label: "reprise-conformance-nothing", Value: distinctive, Selectors: nothing,
			Floor: skills.Floor{ActiveWindow: target.Open.Floor.ActiveWindow}}})
		if err != nil {
			t.Fatalf("a step that matches nothing is a Go error (%v); want a failed outcome", err)
		}
		if out.OK || out.Error == "" || len(out.Tried) == 0 {
			t.Fatalf("outcome %+v; want failed, with what was tried", out)
		}
		if !strings.Contains(out.Error, "reprise") {
			t.Errorf("error %q does not name what it looked for", out.Error)
		}
		if strings.Contains(out.Error, distinctive) || strings.Contains(out.PageMessage, distinctive) {
			t.Error("the step's value came back in its outcome")
		}
	})
	t.Run("SecretStepIsForThePerson", func(t *testing.T) {
		ex := target.New(t)
		open(t, ex, target.Open)
		out, err := ex.Do(ctx, replay.Step{Row: 1, Step: skills.Step{Action: "fill", Label: "Password", Secret: true, Selectors: nothing}})
		if err != nil || out.OK || !strings.HasPrefix(out.Error, replay.ErrNeedsPerson.Error()) {
			t.Fatalf("secret step = %+v, %v; want a failed outcome that says the person does it", out, err)
		}
	})
	t.Run("UnknownActionIsAnOutcome", func(t *testing.T) {
		ex := target.New(t)
		out, err := ex.Do(ctx, replay.Step{Row: 1, Step: skills.Step{Action: "teleport", Selectors: nothing}})
		if err != nil || out.OK || out.Error == "" {
			t.Fatalf("unknown action = %+v, %v; want a failed outcome", out, err)
		}
	})
	t.Run("CancelledContextReturnsAtOnce", func(t *testing.T) {
		ex := target.New(t)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		start := time.Now()
		_, err := ex.Do(cctx, replay.Step{Row: 1, Step: target.Open})
		if err == nil || time.Since(start) > 5*time.Second {
			t.Fatalf("Do with a cancelled context = %v after %s; want an error, at once", err, time.Since(start))
		}
	})
	t.Run("ClosedExecutorRefusesAndClosesTwice", func(t *testing.T) {
		ex := target.New(t)
		if err := ex.Close(); err != nil {
			t.Fatal(err)
		}
		if err := ex.Close(); err != nil {
			t.Fatalf("second Close = %v", err)
		}
		if _, err := ex.Do(ctx, replay.Step{Row: 1, Step: target.Open}); err == nil {
			t.Fatal("Do after Close succeeded")
		}
		if _, err := ex.Verify(ctx, skills.Verification{URL: target.Open.Value, Expect: skills.Condition{Kind: "text", Value: "x"}}); err == nil {
			t.Fatal("Verify after Close succeeded")
		}
	})
	t.Run("DryRunDestructiveStepCommitsNothing", func(t *testing.T) {
		ex := target.New(t)
		open(t, ex, target.Open)
		out, err := ex.Do(ctx, replay.Step{Row: 1, DryRun: true, Step: skills.Step{Action: "submit", Destructive: true, Selectors: nothing}})
		if err != nil || out.Committed {
			t.Fatalf("dry-run destructive step = %+v, %v; want nothing committed", out, err)
		}
	})
}

func open(t *testing.T, ex replay.Executor, st skills.Step) {
	t.Helper()
	if out, err := ex.Do(context.Background(), replay.Step{Row: 1, Step: st}); err != nil || !out.OK {
		t.Fatalf("open (%s): %+v, %v", st.Action, out, err)
	}
}
