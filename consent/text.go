package consent

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/reprise-dev/reprise/api"
)

// WriteChoices writes the remembered answers as a table, one kind a line,
// as `reprise consent choices` prints them; none says every recording
// asks.
func WriteChoices(w io.Writer, cs []api.ConsentChoice) error {
	if len(cs) == 0 {
		_, err := fmt.Fprintln(w, "No remembered answers: every recording asks.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tANSWER\tDECIDED")
	for _, ch := range cs {
		answer := "deny"
		if ch.Approved {
			answer = "approve"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", ch.Kind, answer, ch.DecidedAt.Local().Format(time.DateTime))
	}
	return tw.Flush()
}

// WritePrompts writes the prompts waiting for an answer, each with its id,
// who asked, its body, and how to give each answer: commands gives the
// front end's way for prompt id (a command line, a link). None says so.
func WritePrompts(w io.Writer, ps []api.ConsentPrompt, commands func(id string) (approve, deny string)) error {
	if len(ps) == 0 {
		_, err := fmt.Fprintln(w, "No consent prompt is waiting.")
		return err
	}
	for _, p := range ps {
		approve, deny := commands(p.ID)
		fmt.Fprintf(w, "── %s  (id %s, asked by %s)\n\n%s\n\n", p.Title, p.ID, p.Requester, p.Body)
		fmt.Fprintf(w, "   %s:  %s\n", p.Approve, approve)
		if _, err := fmt.Fprintf(w, "   %s:  %s\n\n", p.Deny, deny); err != nil {
			return err
		}
	}
	return nil
}
