package skills

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// QuestionKind says why a question is asked.
type QuestionKind string

// Question kinds.
const (
	// AskParameter: one recording cannot tell a parameter from a constant.
	AskParameter QuestionKind = "parameter"
	// AskSameValue: a per-row-looking field had one value in every recording.
	AskSameValue QuestionKind = "same_value"
	// AskAmbiguous: several CSV columns fit a parameter equally.
	AskAmbiguous QuestionKind = "ambiguous"
	// AskMissingColumn: no CSV column fits a parameter.
	AskMissingColumn QuestionKind = "missing_column"
	// AskRedacted: a value was redacted at capture, so it must come from a column.
	AskRedacted QuestionKind = "redacted"
)

// Question is one thing the person must answer before the skill saves. The
// answer is a Confirm entry for Parameter. No question quotes a value.
type Question struct {
	Kind      QuestionKind
	Parameter string   // the name to answer for: Parameter=<column> or Parameter=const
	Label     string   // the field's label
	Step      int      // the step's number in the draft, from 1
	Columns   []string // the columns that fit, best first; empty when none does
	Text      string   // the question, for a person
}

// resolve decides each candidate: a constant, a parameter with a column, or
// an open question.
func (g *builder) resolve() error {
	known := map[string]bool{}
	for _, c := range g.cands {
		known[c.name] = true
	}
	for name := range g.opts.Confirm {
		if !known[name] {
			return fmt.Errorf("%w: %s is not a parameter of this draft; the parameters are %s", ErrBadAnswer, name, g.candNames())
		}
	}
	for _, c := range g.cands {
		if err := g.decide(c); err != nil {
			return err
		}
	}
	return nil
}

func (g *builder) decide(c *candidate) error {
	a := readAnswer(g.opts.Confirm, c.name)
	varies := !allSame(c.values)
	action := g.skill.Steps[c.step].Action
	navigation := action == events.ActionNavigate || action == events.ActionLaunchApp || action == events.ActionFocusWindow
	switch {
	case a.given && a.isCons && (varies || c.unknown):
		return fmt.Errorf("%w: %s=const, but %q (step %d) %s, so it must come from a column", ErrBadAnswer,
			c.name, c.label, c.step+1, map[bool]string{true: "was redacted", false: "changed between recordings"}[c.unknown])
	case a.given && a.isCons:
		c.constant = true
	case a.given:
		if len(g.opts.Header) > 0 && !slices.Contains(g.opts.Header, a.column) {
			return fmt.Errorf("%w: %s=%s, but the CSV has no column %q; its columns are %s", ErrBadAnswer,
				c.name, a.column, a.column, quoteList(g.opts.Header))
		}
		c.column = a.column
	case c.unknown:
		g.ask(c, AskRedacted)
	case navigation && !varies:
		c.constant = true
	case g.n == 1 && dataActions[action]:
		g.ask(c, AskParameter)
	case !varies && perRow(c.label, c.typ):
		g.ask(c, AskSameValue)
	case !varies:
		c.constant = true
	default:
		g.join(c)
	}
	return nil
}

// join joins a demonstrated parameter to its column, or asks.
func (g *builder) join(c *candidate) {
	if len(g.opts.Header) == 0 {
		c.column = c.label
		if c.column == "" {
			c.column = c.name
		}
		return
	}
	j := join(c.label, c.values, g.opts.Header, g.opts.SampleRows)
	switch {
	case j.column != "":
		c.column = j.column
	case len(j.candidates) > 0:
		g.ask(c, AskAmbiguous)
	default:
		g.ask(c, AskMissingColumn)
	}
}

// ask opens a question about c, suggesting the columns that fit.
func (g *builder) ask(c *candidate, kind QuestionKind) {
	c.asked = true
	q := Question{Kind: kind, Parameter: c.name, Label: c.label, Step: c.step + 1}
	if len(g.opts.Header) > 0 {
		j := join(c.label, c.values, g.opts.Header, g.opts.SampleRows)
		q.Columns = j.candidates
		if j.column != "" {
			q.Columns = []string{j.column}
		}
	}
	if len(q.Columns) > 0 {
		c.column = q.Columns[0]
	}
	what := fmt.Sprintf("%q (step %d)", c.label, q.Step)
	if c.label == "" {
		what = fmt.Sprintf("the value of step %d", q.Step)
	}
	hint := ""
	if len(q.Columns) > 0 {
		hint = fmt.Sprintf(" (likely %q)", q.Columns[0])
	}
	n := c.name
	switch kind {
	case AskParameter:
		q.Text = fmt.Sprintf("Is %s a CSV column or the same for every row? Only one recording shows it. Answer %s=<column>%s or %s=const.", what, n, hint, n)
	case AskSameValue:
		q.Text = fmt.Sprintf("%s had the same value in every recording. Is it the same for every row, or a CSV column? Answer %s=const or %s=<column>%s.", upper(what), n, n, hint)
	case AskAmbiguous:
		q.Text = fmt.Sprintf("Which column holds %s? %s fit equally. Answer %s=<column>.", what, quoteList(q.Columns), n)
	case AskMissingColumn:
		q.Text = fmt.Sprintf("No CSV column fits parameter %s, %s; the columns are %s. Add the column to the CSV, or answer %s=<column>.", n, what, quoteList(g.opts.Header), n)
	case AskRedacted:
		q.Text = fmt.Sprintf("The value of %s was redacted when recorded, so it must come from a CSV column. Which one? Answer %s=<column>%s.", what, n, hint)
	}
	g.questions = append(g.questions, q)
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (g *builder) candNames() string {
	names := make([]string, len(g.cands))
	for i, c := range g.cands {
		names[i] = c.name
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, ", ")
}

func allSame(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}
