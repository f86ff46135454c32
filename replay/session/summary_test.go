package session

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/report"
)

func TestWriteSummary(t *testing.T) {
	res := &replay.Result{RunID: "run_x", Rows: []replay.RowResult{
		{N: 1, Outcome: replay.OutcomeCommitted, Step: -1, Notes: []string{"a dialog\x1b[2J accepted"}},
		{N: 2, Outcome: replay.OutcomeFailed, Step: 2, Action: "fill", Reason: "no such field"},
		{N: 3, Outcome: replay.OutcomeSkipped, Step: -1, Reason: "refused before the run: bad email"},
	}}
	var b strings.Builder
	WriteSummary(&b, res.RunID, report.FromResult(res))
	want := "run run_x: 1 committed, 1 failed, 1 skipped, 0 unknown\n" +
		"  row 1: a dialog\\x1b[2J accepted\n" +
		"  row 2 failed at step 3 (fill): no such field\n" +
		"  row 3 skipped: refused before the run: bad email\n"
	if b.String() != want {
		t.Errorf("WriteSummary =\n%s\nwant\n%s", b.String(), want)
	}
}
