package recordings

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/termtext"
)

// WriteList writes the recordings kept as a table, one a line, as
// `reprise recordings list` prints them: a recording that lost steps says
// how many in its state.
func WriteList(w io.Writer, recs []api.RecordingListing) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RECORDING\tSTARTED\tMODE\tROUTE\tSTATE\tSTEPS")
	for _, r := range recs {
		state := r.State
		if r.LostSteps > 0 {
			state += fmt.Sprintf(" (incomplete: %d lost)", r.LostSteps)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\n", termtext.Line(r.RecordingID), stamp(r.CreatedAt), termtext.Line(r.Mode), termtext.Line(r.InterpretationRoute), state, r.StepsStored)
	}
	return tw.Flush()
}

// WriteSteps writes rec's steps as a table after a line that names it, as
// `reprise recordings show` prints them: what each step did, to what, with
// which value (never a secret's, nor a redacted one's) in which app.
func WriteSteps(w io.Writer, rec *events.Recording) error {
	fmt.Fprintf(w, "%s  %s  route %s  %d steps\n", termtext.Line(rec.RecordingID), stamp(rec.CreatedAt), termtext.Line(rec.InterpretationRoute), len(rec.Steps))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tACTION\tKIND\tTARGET\tVALUE\tAPP")
	for _, s := range rec.Steps {
		kind, target := events.KindNone, ""
		if e := s.Enrichment; e != nil {
			kind, target = e.Kind, e.Label
			if target == "" {
				target = e.Role
			}
		}
		value := ""
		if v := s.Value; v != nil {
			value = v.Raw
			if s.Redacted || v.Type == events.ValueSecret {
				value = "(redacted)"
			}
		}
		action := s.Action
		if s.Inferred {
			action += " (inferred from state)"
		}
		// An imported recording's labels and values may hold escapes.
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", s.Seq, termtext.Line(action), termtext.Line(kind), termtext.Line(target), termtext.Line(value), termtext.Line(s.ActiveApp))
	}
	return tw.Flush()
}

// stamp is a recording's time (Unix seconds) in local time, to the second.
func stamp(ts float64) string {
	return time.Unix(0, int64(ts*1e9)).Local().Format("2006-01-02 15:04:05")
}
