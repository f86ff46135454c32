package learn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/cells"
)

// maxQuotedCells bounds the cells an options question quotes: a choice
// column holds a few short words; more, or longer, is not a vocabulary.
const (
	maxQuotedCells = 12
	maxQuotedCell  = 40
)

// settle finishes a parameter joined to its column: the person's mappings
// of cells onto options, whether an empty cell is allowed, and the sample
// CSV's cells checked against both, so a row that cannot be filled is
// caught now rather than at its turn.
func (g *builder) settle(c *candidate) error {
	if c.constant || c.asked || c.column == "" {
		return nil
	}
	mapping, optional := cellAnswers(g.opts.Confirm, c.name)
	if err := g.readMapping(c, mapping); err != nil {
		return err
	}
	if err := g.settleShape(c); err != nil || c.asked {
		return err
	}
	if c.typ == skills.TypeList && optional == "" {
		// An empty cell lists nothing: the control holds no item, as a
		// box's empty cell leaves it unchecked.
		c.optional = true
	}
	switch optional {
	case "yes", "y", "true":
		c.optional = true
	case "no", "n", "false":
	case "":
		if c.typ != skills.TypeBoolean && c.typ != skills.TypeList && !c.defaulted && slices.Contains(c.values, "") {
			c.optional = true
			if g.cols[c.step] == nil || c.shownBy != nil {
				// A step added by the person's answer: no recording shows
				// the field at all, so nothing is said of what it held.
				break
			}
			if allSame(c.values) {
				// Every recording has the step, and none read a value: the
				// person used the widget, and the recorder did not see what
				// it took. Said so, never "left empty".
				g.note("The widget under label %q (step %d) was used in every recording, but its value was not recorded (it read as empty): check that the skill sets what you chose there. It is optional: an empty cell leaves it empty.",
					c.label, c.step+1)
				break
			}
			g.note("Step %d (%q) was left empty in %s: it is optional, and an empty cell leaves it empty.",
				c.step+1, c.label, recordingsWhere(c.values, ""))
		}
	default:
		return fmt.Errorf("%w: %s/optional=%s: answer yes or no", ErrBadAnswer, c.name, quoteShort(optional))
	}
	sample := g.sampleCells(c.column)
	if sample == nil {
		return nil
	}
	if optional == "" && !c.optional && c.typ != skills.TypeBoolean && slices.Contains(sample, "") {
		g.askDetail(c, AskOptional, fmt.Sprintf(
			"Column %q is empty in some sample rows, but %q (step %d) was filled in every recording. May it be left empty? Answer %s/optional=yes (an empty cell leaves it empty) or %s/optional=no (such rows are refused).",
			c.column, c.label, c.step+1, c.name, c.name))
		return nil
	}
	if c.typ != skills.TypeBoolean && (c.typ != events.ValueEnum && c.typ != skills.TypeList || len(c.options) == 0) {
		return nil
	}
	p := skills.Parameter{Name: c.name, Type: c.typ, Optional: c.optional, Options: c.mapping, Separator: c.sep}
	var unmapped []string
	for _, cell := range sample {
		if c.typ == skills.TypeList {
			// A list's items are mapped one by one.
			for _, it := range cells.Items(p, cell) {
				if _, err := cells.Map(p, it, c.options); err != nil && !slices.Contains(unmapped, it) {
					unmapped = append(unmapped, it)
				}
			}
			continue
		}
		if _, err := cells.Map(p, cell, c.options); err != nil && !slices.Contains(unmapped, cell) {
			unmapped = append(unmapped, strings.TrimSpace(cell))
		}
	}
	if len(unmapped) > 0 {
		g.askDetail(c, AskOptions, g.optionsQuestion(c, unmapped))
	}
	return nil
}

// readMapping checks the person's name/cell answers and keeps them: an
// option's label for a choice, true or false for a box.
func (g *builder) readMapping(c *candidate, mapping map[string]string) error {
	for cell, to := range mapping {
		switch {
		case c.typ == skills.TypeBoolean:
			v, err := cells.Map(skills.Parameter{Type: skills.TypeBoolean}, to, nil)
			if err != nil || to == "" {
				return fmt.Errorf("%w: %s/%s: a box's cell maps to yes or no", ErrBadAnswer, c.name, quoteShort(cell))
			}
			mapping[cell] = v
		case (c.typ == events.ValueEnum || c.typ == skills.TypeList) && len(c.options) > 0:
			o, ok := cells.MatchOption(to, c.options)
			if !ok {
				return fmt.Errorf("%w: %s/%s: %s is not an option of %q; the options are %s", ErrBadAnswer,
					c.name, quoteShort(cell), quoteShort(to), c.label, quoteList(labels(c.options)))
			}
			mapping[cell] = o.Label
		case c.typ != events.ValueEnum && c.typ != skills.TypeList:
			return fmt.Errorf("%w: %s/%s: only a choice, a list or a box maps cells", ErrBadAnswer, c.name, quoteShort(cell))
		}
	}
	if len(mapping) > 0 {
		c.mapping = mapping
	}
	return nil
}

func (g *builder) optionsQuestion(c *candidate, unmapped []string) string {
	n := c.name
	quoted := len(unmapped) <= maxQuotedCells
	for _, u := range unmapped {
		quoted = quoted && len(u) <= maxQuotedCell
	}
	what := fmt.Sprintf("%d value(s) of column %q", len(unmapped), c.column)
	if quoted {
		what = fmt.Sprintf("Column %q holds %s, which", c.column, quoteList(unmapped))
	} else {
		what = upper(what) + ", which"
	}
	if c.typ == skills.TypeBoolean {
		return fmt.Sprintf("%s %s not yes/no words for the box %q (step %d). Map each: %s/<cell>=yes or %s/<cell>=no.",
			what, verb(len(unmapped)), c.label, c.step+1, n, n)
	}
	return fmt.Sprintf("%s %s none of the options of %q (step %d): %s. Map each: %s/<cell>=<option>.",
		what, verbMatch(len(unmapped)), c.label, c.step+1, quoteList(labels(c.options)), n)
}

func verb(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func verbMatch(n int) string {
	if n == 1 {
		return "matches"
	}
	return "match"
}

// sampleCells returns the sample rows' cells of column, nil without one.
func (g *builder) sampleCells(column string) []string {
	i := slices.Index(g.opts.Header, column)
	if i < 0 || len(g.opts.SampleRows) == 0 {
		return nil
	}
	cells := make([]string, 0, len(g.opts.SampleRows))
	for _, r := range g.opts.SampleRows {
		if i < len(r) {
			cells = append(cells, strings.TrimSpace(r[i]))
		} else {
			cells = append(cells, "")
		}
	}
	return cells
}

// optionsOf is the union of the recorded options of a choice's steps, in
// the first recording's order: a closed set when any recording saw one.
func optionsOf(c column) []skills.Option {
	var out []skills.Option
	for _, s := range c {
		if s == nil || s.Enrichment == nil {
			continue
		}
		for _, o := range s.Enrichment.Options {
			if !slices.ContainsFunc(out, func(x skills.Option) bool { return x.Label == o.Label && x.Value == o.Value }) {
				out = append(out, skills.Option{Label: o.Label, Value: o.Value})
			}
		}
	}
	return out
}

// recordingsWhere names the recordings whose value is v.
func recordingsWhere(values []string, v string) string {
	var ks []string
	for k, x := range values {
		if x == v {
			ks = append(ks, fmt.Sprint(k+1))
		}
	}
	if len(ks) == 1 {
		return "recording " + ks[0]
	}
	return "recordings " + strings.Join(ks, ", ")
}
