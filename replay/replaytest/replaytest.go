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
// navigate value of a page the target shows (a URL, an app).
type Target struct {
	New func(t *testing.T) replay.Executor
	// Page is a navigate value that opens something the executor can act
	// on, with no element labelled "reprise-conformance-nothing".
	Page string
}

// distinctive is a value no target shows; it must never come back in an
// outcome (outcomes go to the log).
const distinctive = "QUOKKA-4471-conformance"

// Run runs the suite.
func Run(t *testing.T, target Target) {
	ctx := context.Background()
	nothing := []skills.Selector{{Strategy: "label", Value: "reprise-conformance-nothing"}, {Strategy: "name", Value: "reprise_conformance_nothing"}}

	t.Run("NavigateNeedsNoElement", func(t *testing.T) {
		ex := target.New(t)
		out, err := ex.Do(ctx, replay.Step{Row: 1, Step: skills.Step{Action: "navigate", Value: target.Page}})
		if err != nil || !out.OK {
			t.Fatalf("navigate = %+v, %v; want ok", out, err)
		}
	})
	t.Run("NothingMatchesIsAnOutcomeNamingEverySelector", func(t *testing.T) {
		ex := target.New(t)
		open(t, ex, target.Page)
		out, err := ex.Do(ctx, replay.Step{Row: 1, Index: 3, Step: skills.Step{Action: "fill", Label: "Nothing", Value: distinctive, Selectors: nothing}})
		if err != nil {
			t.Fatalf("a step that matches nothing is a Go error (%v); want a failed outcome", err)
		}
		if out.OK || out.Error == "" || len(out.Tried) != len(nothing) {
			t.Fatalf("outcome %+v; want failed, with every selector tried", out)
		}
		for _, s := range nothing {
			if !strings.Contains(out.Error, s.Value) {
				t.Errorf("error %q does not name the selector %s", out.Error, s.Value)
			}
		}
		if strings.Contains(out.Error, distinctive) || strings.Contains(out.PageMessage, distinctive) {
			t.Error("the step's value came back in its outcome")
		}
	})
	t.Run("SecretStepIsForThePerson", func(t *testing.T) {
		ex := target.New(t)
		open(t, ex, target.Page)
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
		_, err := ex.Do(cctx, replay.Step{Row: 1, Step: skills.Step{Action: "navigate", Value: target.Page}})
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
		if _, err := ex.Do(ctx, replay.Step{Row: 1, Step: skills.Step{Action: "navigate", Value: target.Page}}); err == nil {
			t.Fatal("Do after Close succeeded")
		}
		if _, err := ex.Verify(ctx, skills.Verification{URL: target.Page, Expect: skills.Condition{Kind: "text", Value: "x"}}); err == nil {
			t.Fatal("Verify after Close succeeded")
		}
	})
	t.Run("DryRunDestructiveStepCommitsNothing", func(t *testing.T) {
		ex := target.New(t)
		open(t, ex, target.Page)
		out, err := ex.Do(ctx, replay.Step{Row: 1, DryRun: true, Step: skills.Step{Action: "submit", Destructive: true, Selectors: nothing}})
		if err != nil || out.Committed {
			t.Fatalf("dry-run destructive step = %+v, %v; want nothing committed", out, err)
		}
	})
}

func open(t *testing.T, ex replay.Executor, page string) {
	t.Helper()
	if out, err := ex.Do(context.Background(), replay.Step{Row: 1, Step: skills.Step{Action: "navigate", Value: page}}); err != nil || !out.OK {
		t.Fatalf("open %s: %+v, %v", page, out, err)
	}
}
