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
