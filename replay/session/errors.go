package session

import (
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/replay"
)

// The refusals a caller words for a person, in its own terms (the CLI
// names its flags). Nothing was filed when one is returned.
var (
	// ErrHubNeedsDryRun: an unattended hub run of a skill version no dry
	// run on that hub has passed.
	ErrHubNeedsDryRun = errors.New("this skill version has not passed a dry run on the hub: run it there once as a dry run (a few rows are enough)")
	// ErrParallelDesktop: more than one row at a time on the desktop,
	// which has one keyboard and pointer.
	ErrParallelDesktop = errors.New("rows in parallel need the browser executor: a desktop has one keyboard and pointer, so its rows run one at a time")
)

// RowsError refuses a run for its bad rows (cells that do not fit the
// skill): every row is bad, or Stop says any bad row stops the run.
type RowsError struct {
	Bad  []replay.BadRow
	Stop bool
}

func (e *RowsError) Error() string {
	if e.Stop {
		return fmt.Sprintf("%d bad row(s), nothing was run:\n  %s", len(e.Bad), e.Why())
	}
	return fmt.Sprintf("every row is bad (%d), nothing was run:\n  %s", len(e.Bad), e.Why())
}

// Why is each bad row's reason, a line each.
func (e *RowsError) Why() string {
	whys := make([]string, len(e.Bad))
	for i, b := range e.Bad {
		whys[i] = b.Why()
	}
	return strings.Join(whys, "\n  ")
}

// ColumnsError refuses a CSV with columns no step uses and neither the
// skill nor the run ignores: a row's value there would be left out
// silently.
type ColumnsError struct{ Columns []string }

func (e *ColumnsError) Error() string {
	return fmt.Sprintf("no step of the skill uses column(s) %s, and the skill does not ignore them: a row's value there would be left out silently", QuoteJoin(e.Columns))
}

// QuoteJoin quotes each of xs and joins them with commas.
func QuoteJoin(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
