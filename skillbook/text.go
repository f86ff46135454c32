package skillbook

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills"
)

// WriteList writes the skills kept as a table, the newest version of
// each a line, as `reprise skill list` prints them.
func WriteList(w io.Writer, reply api.SkillListReply) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SKILL\tREVISION\tSAVED\tNAME\tPARAMETERS\tSTEPS")
	for _, s := range reply.Skills {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\n", s.ID, s.Revision, s.Saved.Local().Format("2006-01-02 15:04:05"), termtext.Line(s.Name), s.Parameters, s.Steps)
	}
	return tw.Flush()
}

// WriteNotes writes a draft's notes, one a line, as a build and an
// import both show them.
func WriteNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", termtext.Line(n))
	}
}

// WriteQuestions writes a draft's questions, numbered from 1, each with
// the parameter it is about.
func WriteQuestions(w io.Writer, qs []ops.Question) {
	for i, q := range qs {
		fmt.Fprintf(w, "%d. [%s] %s\n", i+1, termtext.Line(q.Parameter), termtext.Block(q.Text))
	}
}

// WriteDocument writes a kept skill's document after what it does with a
// row in words, as YAML comments: the output still reads as the skill. A
// document that does not parse is written without them.
func WriteDocument(w io.Writer, doc string) error {
	if s, err := skills.Parse([]byte(doc)); err == nil {
		for _, line := range skills.Summary(s) {
			fmt.Fprintf(w, "# %s\n", termtext.Line(line))
		}
	}
	_, err := fmt.Fprint(w, termtext.Block(doc))
	return err
}
