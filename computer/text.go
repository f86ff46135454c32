package computer

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// WriteTargets writes the desktop's windows as a table, front to back, as
// `reprise computer targets` prints them: the refused ones with why.
func WriteTargets(w io.Writer, ts []api.Target) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "WINDOW\tAPP\tTITLE\tREFUSED")
	for _, t := range ts {
		refused := "-"
		if t.Refused != "" {
			refused = t.Refused + ": " + t.Reason
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.App, t.Title, refused)
	}
	return tw.Flush()
}

// WriteGrant writes the active grant on one line, or that none is.
func WriteGrant(w io.Writer, r api.GrantReply) error {
	if !r.Active {
		_, err := fmt.Fprintln(w, "no grant is active")
		return err
	}
	_, err := fmt.Fprintf(w, "grant %s by %s: %s scope on %s (%s, window %s), revision %d, %s, %d actions left\n",
		r.ID, r.Issuer, r.Scope, r.App, r.Title, r.WindowID, r.Revision, r.Capture, r.Budget)
	return err
}

// WriteRun writes what a script printed and returned, and its
// screenshots; a script that threw is its error, after what it printed.
func WriteRun(w io.Writer, reply ops.ComputerRunResult) error {
	for _, line := range reply.Output {
		fmt.Fprintln(w, line)
	}
	for _, s := range reply.Screenshots {
		fmt.Fprintf(w, "screenshot of %s: %s (%dx%d)\n", s.Target, s.Path, s.Width, s.Height)
	}
	if reply.Error != nil {
		return fmt.Errorf("%w", reply.Error)
	}
	if reply.Return != "" {
		fmt.Fprintln(w, reply.Return)
	} else if len(reply.Output) == 0 && len(reply.Screenshots) == 0 {
		fmt.Fprintln(w, "Ran computer code")
	}
	return nil
}
