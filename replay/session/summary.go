package session

import (
	"fmt"
	"io"
	"strings"

	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/report"
)

// WriteSummary prints the run's summary for a terminal: the count of each
// outcome, then for each row that needs a look (failed, unknown, refused
// before the run) why, and every row's notes, what a model healed and its
// output, each on one line with nothing a terminal would act on.
func WriteSummary(out io.Writer, runID string, rs []report.Row) {
	committed, failed, skipped, unknown := report.Summary(rs)
	fmt.Fprintf(out, "run %s: %d committed, %d failed, %d skipped, %d unknown\n", runID, committed, failed, skipped, unknown)
	for _, r := range rs {
		if r.Outcome == replay.OutcomeFailed || r.Outcome == replay.OutcomeUnknown || strings.HasPrefix(r.Reason, "refused before the run") {
			step := ""
			if r.Step > 0 {
				step = fmt.Sprintf(" at step %d (%s)", r.Step, r.Action)
			}
			fmt.Fprintf(out, "  row %d %s%s: %s\n", r.N, r.Outcome, step, termtext.Line(r.Reason))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(out, "  row %d: %s\n", r.N, termtext.Line(n))
		}
		for _, h := range r.Healed {
			fmt.Fprintf(out, "  row %d healed: %s\n", r.N, termtext.Line(h))
		}
		if r.Output != "" {
			fmt.Fprintf(out, "  row %d output: %s\n", r.N, termtext.Line(r.Output))
		}
	}
}

// WriteReport prints the run's summary and, when path is set, writes its
// per-row report there (a .csv or .json file) and says where.
func WriteReport(out io.Writer, path string, res *replay.Result) error {
	rs := report.FromResult(res)
	WriteSummary(out, res.RunID, rs)
	if path == "" {
		return nil
	}
	if err := report.Write(path, rs); err != nil {
		return err
	}
	fmt.Fprintf(out, "report: %s\n", path)
	return nil
}
