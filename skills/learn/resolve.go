package learn

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/cells"
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
	// AskOptions: cells of a choice's or a box's column match no option.
	AskOptions QuestionKind = "options"
	// AskOptional: a column has empty cells for a field that needs a value.
	AskOptional QuestionKind = "optional"
	// AskUnusedColumn: a CSV column is used by no step.
	AskUnusedColumn QuestionKind = "unused_column"
	// AskUntouchedField: a per-row-looking field was left alone in every
	// demonstration.
	AskUntouchedField QuestionKind = "untouched_field"
	// AskSuccess: the demonstrations showed nothing in common after a
	// destructive step, so success cannot be taken from them.
	AskSuccess QuestionKind = "success"
	// AskIncomplete: a recording lost steps when it was made, so the skill
	// may miss what they did.
	AskIncomplete QuestionKind = "incomplete"
	// AskDateFormat: a date column's cells read two ways (03/04/2027).
	AskDateFormat QuestionKind = "date_format"
)

// Question is one thing the person must answer before the skill saves. The
// answer is a Confirm entry for Parameter. No question quotes a field's
// value; an options question quotes the cells of a choice column (a few
// short words of the CSV's vocabulary) so the person can map them.
type Question struct {
	Kind      QuestionKind
	Parameter string   // the key to answer: Parameter=<column>, Parameter=const, or the key the text names
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
	for key := range g.opts.Confirm {
		if strings.HasPrefix(key, columnKey) || strings.HasPrefix(key, fieldKey) || strings.HasPrefix(key, successKey) {
			continue // checked where they are used
		}
		name, _, _ := strings.Cut(key, "/")
		if !known[name] {
			return fmt.Errorf("%w: %s is not a parameter of this draft; the parameters are %s", ErrBadAnswer, name, g.candNames())
		}
	}
	for _, c := range g.cands {
		if err := g.decide(c); err != nil {
			return err
		}
		if err := g.settle(c); err != nil {
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
		if col := g.contradicted(c); col != "" {
			return fmt.Errorf("%w: %s=const, but column %q of the sample holds other values for %q (step %d): a constant would file the demonstrated value in every row. Answer %s=%s, or column:%s=ignore if that column is not this field's",
				ErrBadAnswer, c.name, col, c.label, c.step+1, c.name, col, col)
		}
		c.constant = true
	case a.given:
		if len(g.opts.Header) > 0 && !slices.Contains(g.opts.Header, a.column) {
			return fmt.Errorf("%w: %s=%s, but the CSV has no column %q; its columns are %s", ErrBadAnswer,
				c.name, a.column, a.column, quoteList(g.opts.Header))
		}
		c.column = a.column
		if c.typ == skills.TypeList {
			if col, sep := g.joinList(c); col == a.column {
				c.sep = sep
			}
		}
		if f := g.joinByDateParts(c); f.column == a.column {
			c.written, c.format, c.typ = f.written, f.format, events.ValueDate
		}
	case c.unknown:
		g.ask(c, AskRedacted)
	case navigation && !varies:
		c.constant = true
	case g.n == 1 && dataActions[action]:
		g.ask(c, AskParameter)
	// A value every demonstration gave alike is a constant only when
	// nothing says otherwise: a per-row-looking field, or a CSV column
	// that fits it (the demonstrations may just have agreed), is asked.
	case !varies && (perRow(c.label, c.typ) || g.columnFits(c)):
		g.ask(c, AskSameValue)
	case !varies:
		c.constant = true
	default:
		g.join(c)
	}
	return nil
}

// contradicted returns the sample CSV column that fits c and holds a cell
// other than c's constant value (compared as replay would map it), unless
// the person ignored that column: "" when none does.
func (g *builder) contradicted(c *candidate) string {
	if len(g.opts.Header) == 0 || len(c.values) == 0 {
		return ""
	}
	j := join(c.label, c.values, g.opts.Header, g.opts.SampleRows)
	cols := j.candidates
	if j.column != "" {
		cols = []string{j.column}
	}
	p := skills.Parameter{Type: c.typ, Optional: true}
	want, err := cells.Map(p, c.values[0], c.options)
	if err != nil {
		want = c.values[0]
	}
	for _, col := range cols {
		if g.opts.Confirm[columnKey+col] == IgnoreAnswer {
			continue
		}
		for _, cell := range g.sampleCells(col) {
			if got, err := cells.Map(p, cell, c.options); err != nil || skills.Loose(got) != skills.Loose(want) {
				return col
			}
		}
	}
	return ""
}

// columnFits reports whether a CSV column fits c by its label or by the
// demonstrated values.
func (g *builder) columnFits(c *candidate) bool {
	if len(g.opts.Header) == 0 || c.label == "" && c.typ != events.ValueEnum {
		return false
	}
	if g.joinByDemoRows(c) != "" {
		return true
	}
	if col, _ := g.joinList(c); col != "" && c.typ == skills.TypeList {
		return true
	}
	if g.joinByDateParts(c).column != "" {
		return true
	}
	j := join(c.label, c.values, g.opts.Header, g.opts.SampleRows)
	return j.column != "" || len(j.candidates) > 0
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
	if c.typ == skills.TypeList {
		if col, sep := g.joinList(c); col != "" {
			c.column, c.sep = col, sep
			g.note("Step %d (%q) holds the items of column %q, split by %s.", c.step+1, c.label, col, sepName(sep))
			return
		}
	}
	if col := g.joinByDemoRows(c); col != "" {
		c.column = col
		return
	}
	j := join(c.label, c.values, g.opts.Header, g.opts.SampleRows)
	if j.how != "sample values" || j.column == "" {
		// A date the recordings typed or chose in another shape than the
		// CSV writes it (a mask, three selects) is that column, with a
		// format: before a label join, which would file the ISO text.
		if f := g.joinByDateParts(c); f.column != "" {
			c.column, c.written, c.format, c.typ = f.column, f.written, f.format, events.ValueDate
			g.note("Step %d (%q) takes the dates of column %q, written %s, as %s.", c.step+1, c.label, f.column,
				cmp.Or(f.written, "YYYY-MM-DD"), cmp.Or(f.format, "a date"))
			return
		}
	}
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
		if col := g.joinByDemoRows(c); col != "" {
			q.Columns = []string{col}
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

// askDetail opens a question about c, decided already, with its own text.
func (g *builder) askDetail(c *candidate, kind QuestionKind, text string) {
	c.asked = true
	q := Question{Kind: kind, Parameter: c.name, Label: c.label, Step: c.step + 1, Text: text}
	if c.column != "" {
		q.Columns = []string{c.column}
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
