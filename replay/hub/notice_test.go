package hub

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// lacking is a worker's tabs without what the skill needs.
type lacking struct{}

func (lacking) Slots() int { return 2 }
func (lacking) For(context.Context, int, *skills.Skill) (replay.Executor, error) {
	return nil, fmt.Errorf("%w: the skill's profile \"crm\" is not one this worker holds\x1b[2J", ErrNotHere)
}

// A worker that cannot file a run's rows hands them back and tells the
// run's coordinator why, once, in a line a terminal shows as text; a
// worker that can then files them.
func TestAWorkerThatCannotSaysSo(t *testing.T) {
	_, _, js := natstest.Start(t, "m_notice")
	key, err := LoadKey(filepath.Join(t.TempDir(), "hub.key"), true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	told := make(chan string, 8)
	p, doc := plan(t, "cannot", 3, func(i int) string { return fmt.Sprintf("n%d@example.org", i) })
	r := &Run{JS: js, Key: key, Plan: p, Doc: doc, Ledger: t.TempDir(), Notice: func(worker, why string) { told <- worker + ": " + why }}
	session, settled, err := r.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan error, 2)
	defer func() { stop(); <-done; <-done }()
	go func() { done <- (&Worker{JS: js, Key: key, Name: "w-without", Tabs: lacking{}}).Run(wctx) }()
	var said string
	select {
	case said = <-told:
	case <-ctx.Done():
		t.Fatal("the coordinator heard nothing from the worker that cannot file the rows")
	}
	if !strings.HasPrefix(said, `w-without: this worker cannot file the skill's rows: the skill's profile "crm"`) || strings.ContainsRune(said, 0x1b) {
		t.Errorf("told %q; want the worker and why, as text", said)
	}
	s := newSite()
	go func() { done <- (&Worker{JS: js, Key: key, Name: "w-with", Tabs: Fixed{tab{s}}}).Run(wctx) }()
	res, err := r.Wait(ctx, session, settled)
	if err != nil {
		t.Fatal(err)
	}
	if got := count(res); got[replay.OutcomeCommitted] != 3 {
		t.Fatalf("outcomes %v; want 3 committed by the worker that can", got)
	}
	select {
	case again := <-told:
		t.Errorf("told again: %q; want once a worker", again)
	default:
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Fatal("timed out")
	}
}
