package replay

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/natstest"
)

// TestFiledBeforeSetsRowsAside: what the CLI decides before a run that
// this machine's log must settle (a hub's workers read only the hub's):
// a refused row filed by hand is no bad row, and a planned row filed by
// hand is taken out of the run, reported skipped; the others stay.
func TestFiledBeforeSetsRowsAside(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	for row, key := range map[int]string{1: "k-hand1", 2: "k-hand2"} {
		if err := MarkFiledByHand(ctx, js, "new-customer", "rec_demo1", row, key); err != nil {
			t.Fatal(err)
		}
	}
	if err := MarkFiledByHand(ctx, js, "another-skill", "rec_demo2", 1, "k-other-skill"); err != nil {
		t.Fatal(err)
	}
	filed, err := FiledBefore(ctx, js, "new-customer", "run_now")
	if err != nil {
		t.Fatal(err)
	}
	if len(filed) != 2 || filed["k-hand1"] != "hand in recording rec_demo1" {
		t.Fatalf("filed before = %v; want the two keys of new-customer, by hand in rec_demo1", filed)
	}

	for _, tc := range []struct {
		bad    BadRow
		before bool
		reason string
	}{
		{BadRow{N: 1, Err: errors.New("row 1: column Ship by: not a date"), Key: "k-hand1"}, true,
			"already filed by hand in recording rec_demo1 (its cells do not fit the skill: row 1: column Ship by: not a date)"},
		{BadRow{N: 3, Err: errors.New("row 3: column Ship by: not a date"), Key: "k-new"}, false,
			"refused before the run: row 3: column Ship by: not a date"},
		// A row whose cells give no key cannot be told filed.
		{BadRow{N: 4, Err: errors.New("row 4: column Email: empty")}, false, "refused before the run: row 4: column Email: empty"},
	} {
		rr, before := filed.Refused(tc.bad)
		if before != tc.before || rr.Reason != tc.reason || rr.Outcome != OutcomeSkipped {
			t.Errorf("Refused(row %d) = %s %q, %v; want skipped %q, %v", tc.bad.N, rr.Outcome, rr.Reason, before, tc.reason, tc.before)
		}
	}

	left, skipped := filed.TakeOut([]Row{{N: 2, Key: "k-hand2"}, {N: 3, Key: "k-new"}, {N: 5}})
	if len(left) != 2 || left[0].N != 3 || left[1].N != 5 {
		t.Errorf("rows left %v; want rows 3 and 5", left)
	}
	if len(skipped) != 1 || skipped[0].N != 2 || skipped[0].Outcome != OutcomeSkipped || !strings.Contains(skipped[0].Reason, "already filed by hand in recording rec_demo1") {
		t.Errorf("rows set aside %+v; want row 2 skipped, filed by hand", skipped)
	}

	// No log read (--again): nothing is filed before.
	var none Filed
	if _, before := none.Refused(BadRow{N: 1, Err: errors.New("x"), Key: "k-hand1"}); before {
		t.Error("a nil Filed says a row was filed before")
	}
}
