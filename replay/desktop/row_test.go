package desktop

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestLeaseCoversTheRow: the lease is taken at a row's first input and
// kept through its steps; it is let go after the row's last step, after
// a step that did not go through, when another row starts, and on Close.
// A step that waits past LeaseWait fails with nothing sent.
func TestLeaseCoversTheRow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "desktop.lock")
	in := &personInput{}
	ex, err := New(Options{Input: in, Quiet: -1, Lease: LeaseAt(path, "this replay"), LeaseWait: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	other := LeaseAt(path, "the other replay")
	free := func() bool {
		release, _, err := other.Try()
		if err != nil {
			return false
		}
		release()
		return true
	}
	click := func(row, index int, last bool) replay.Outcome {
		t.Helper()
		out, err := ex.Do(ctx, replay.Step{Row: row, Index: index, Last: last, Step: skills.Step{Action: "click", Floor: skills.Floor{Cursor: []int{1, 1}}}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	wait := replay.Step{Row: 1, Index: 1, Step: skills.Step{Action: "wait", Wait: &skills.Condition{}}}
	if !free() {
		t.Fatal("held before any input")
	}
	click(1, 0, false)
	if _, err := ex.Do(ctx, wait); err != nil || free() {
		t.Fatalf("after the row's first input and a wait (%v): the lease is free; want it held for the row", err)
	}
	click(1, 2, true)
	if !free() {
		t.Fatal("held after the row's last step")
	}
	// A step that fails ends the row.
	click(2, 0, false)
	out, err := ex.Do(ctx, replay.Step{Row: 2, Index: 1, Step: skills.Step{Action: "hover"}})
	if err != nil || out.OK || !free() {
		t.Fatalf("a failed step = %+v, %v; want it to let the lease go", out, err)
	}
	// A row that ended without its last step reaching the executor.
	click(3, 0, false)
	click(4, 0, false)
	if free() {
		t.Fatal("a new row's first input left the lease free")
	}
	if err := ex.Close(); err != nil || !free() {
		t.Fatalf("Close (%v) left the lease held", err)
	}
	// Another replay holds it past LeaseWait: the step fails, unsent.
	release, _, err := other.Try()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ex, _ = New(Options{Input: in, Quiet: -1, Lease: LeaseAt(path, "this replay"), LeaseWait: 200 * time.Millisecond})
	clicks := len(in.clicks)
	out, err = ex.Do(ctx, replay.Step{Row: 5, Index: 0, Step: skills.Step{Action: "click", Destructive: true, Floor: skills.Floor{Cursor: []int{1, 1}}}})
	if err != nil || out.OK || !out.NotFiled() || len(in.clicks) != clicks || !strings.Contains(out.Error, "the other replay") {
		t.Fatalf("a step past LeaseWait = %+v, %v; want it failed, nothing sent, naming the holder", out, err)
	}
	// The run's own end is the run's error, not the step's.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := ex.Do(cctx, replay.Step{Row: 6, Step: skills.Step{Action: "click"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("a canceled run = %v; want context.Canceled", err)
	}
}
