package replay

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/skills"
)

// OnErrorAuto's rule. A row that failed provably unfiled does not stop the
// run; failures that look systematic do. The rule looks only at the rows
// this session filled, in the order they finished (across parallel
// workers), and at the ones since the last row that went through
// (committed, or filled in a dry run): the run stops taking rows when
// those end in
//
//   - systematicFailures (3) rows that did not go through, failed or
//     unknown alike; or
//   - systematicUnknowns (2) unknown rows (they may have been filed and
//     could not be confirmed), whatever failed between them.
//
// A single unknown row does not stop the run: a submit whose read-back did
// not hold happens to a row now and then, and the person checks that row.
// A second one with no row filed between them says the skill cannot tell
// whether its submits go through: going on would leave every row for the
// person to check by hand.
//
// Rows the session did not fill are not counted either way: ones skipped
// (filed before, the same record as an earlier row), committed or unknown
// before a resume, and ones a resume settles after a crash (verified on
// the site or reported unknown). A resume starts counting afresh.
const (
	systematicFailures = 3
	systematicUnknowns = 2
)

// systematic is OnErrorAuto's rule: filled are the rows this session
// filled, in the order they finished, and steps the skill's. It returns
// which rows make the failures look systematic, and where they failed, or
// "" while the run goes on.
func systematic(filled []RowResult, steps []skills.Step) string {
	// The rows since the last one that went through.
	start := len(filled)
	for start > 0 && notThrough(filled[start-1]) {
		start--
	}
	tail := filled[start:]
	if len(tail) >= systematicFailures {
		last := tail[len(tail)-systematicFailures:]
		var unknown []RowResult
		for _, r := range last {
			if r.Outcome == OutcomeUnknown {
				unknown = append(unknown, r)
			}
		}
		why := rowNames(last) + " failed in a row" + failedAt(last, steps)
		if len(unknown) > 0 {
			why += " (" + rowNames(unknown) + " may have been filed: check " + itOrThem(unknown) + ")"
		}
		return why
	}
	var unknown []RowResult
	for _, r := range tail {
		if r.Outcome == OutcomeUnknown {
			unknown = append(unknown, r)
		}
	}
	if len(unknown) >= systematicUnknowns {
		return rowNames(unknown) + " may have been filed but could not be confirmed" + failedAt(unknown, steps) +
			", with no row filed between them (check " + itOrThem(unknown) + " on the site)"
	}
	return ""
}

// checkStops is OnErrorAuto's rule for the rows filled, not submitted, for
// the person's check of a destructive skill: tried are those rows in
// order, failed ones and shown ones (OutcomeDryRun). The check stops when
// its first two rows both failed at the same step, or when systematic
// says so; otherwise a failed row is left out and the next one shown.
func checkStops(tried []RowResult, steps []skills.Step) string {
	if len(tried) == 2 && tried[0].Outcome == OutcomeFailed && tried[1].Outcome == OutcomeFailed && tried[0].Step == tried[1].Step {
		return rowNames(tried) + " both failed" + failedAt(tried, steps)
	}
	return systematic(tried, steps)
}

// notThrough says whether a row the session filled did not go through.
func notThrough(r RowResult) bool {
	return r.Outcome == OutcomeFailed || r.Outcome == OutcomeUnknown
}

// failedAt says at which step rows stopped: " at step 3 (fill "Email")" when
// all at the same one, " at steps 2, 3 and 3" (in the rows' order) when
// not.
func failedAt(rows []RowResult, steps []skills.Step) string {
	rows = inRowOrder(rows)
	same := true
	for _, r := range rows {
		same = same && r.Step == rows[0].Step
	}
	if same && rows[0].Step >= 0 {
		return " at step " + stepName(rows[0], steps)
	}
	var ns []string
	for _, r := range rows {
		if r.Step < 0 {
			return ""
		}
		ns = append(ns, strconv.Itoa(r.Step+1))
	}
	return " at steps " + joinAnd(ns)
}

// stepName is a row's failing step as messages number it, from 1, with
// its action and label: `3 (fill "Email")`.
func stepName(r RowResult, steps []skills.Step) string {
	n := strconv.Itoa(r.Step + 1)
	if r.Step >= len(steps) {
		if r.Action != "" {
			return n + " (" + r.Action + ")"
		}
		return n
	}
	if st := steps[r.Step]; st.Label != "" {
		return fmt.Sprintf("%s (%s %q)", n, st.Action, st.Label)
	}
	return n + " (" + steps[r.Step].Action + ")"
}

// rowNames names rows in the CSV's order: "row 4", "rows 4 and 5", "rows
// 4, 5 and 6".
func rowNames(rows []RowResult) string {
	rows = inRowOrder(rows)
	var ns []string
	for _, r := range rows {
		ns = append(ns, strconv.Itoa(r.N))
	}
	if len(ns) == 1 {
		return "row " + ns[0]
	}
	return "rows " + joinAnd(ns)
}

func itOrThem(rows []RowResult) string {
	if len(rows) == 1 {
		return "it"
	}
	return "them"
}

func inRowOrder(rows []RowResult) []RowResult {
	return slices.SortedStableFunc(slices.Values(rows), func(a, b RowResult) int { return a.N - b.N })
}

// joinAnd joins "a", "a and b", "a, b and c".
func joinAnd(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
