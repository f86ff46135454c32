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

// listSeparators are the marks people split a list cell's items by, most
// usual first.
var listSeparators = []string{";", ",", "|", "\n"}

// joinList finds the one column, and the mark its cells are split by, that
// lists what each recording left the control holding: the row a recording
// demonstrated when it is known, else any sample row. Every sample cell of
// the column must split into options (for a closed set). Where several
// marks fit (every cell holds one item), the one the cells use wins, else
// ";", the usual one.
func (g *builder) joinList(c *candidate) (column, sep string) {
	if len(g.opts.Header) == 0 || len(c.values) != g.n {
		return "", ""
	}
	rows := g.demoRows()
	type fit struct{ column, sep string }
	var fits []fit
	for col, name := range g.opts.Header {
		cells := g.sampleCells(name)
		for _, s := range listSeparators {
			p := skills.Parameter{Type: skills.TypeList, Separator: s, Optional: true, Options: c.mapping}
			if !splitsAll(p, cells, c.options) || !g.listsEach(p, col, rows, c) {
				continue
			}
			fits = append(fits, fit{name, s})
		}
	}
	if len(fits) == 0 {
		return "", ""
	}
	for _, f := range fits[1:] {
		if f.column != fits[0].column {
			return "", "" // two columns fit alike: never a guess
		}
	}
	cells := g.sampleCells(fits[0].column)
	for _, f := range fits {
		if slices.ContainsFunc(cells, func(cell string) bool { return strings.Contains(cell, f.sep) }) {
			return f.column, f.sep
		}
	}
	return fits[0].column, fits[0].sep
}

// listsEach reports whether column col, split by p, holds what each
// recording left the control holding: in the row it demonstrated, or
// without those, in some sample row. A recording that left it empty says
// nothing (the page's default).
func (g *builder) listsEach(p skills.Parameter, col int, rows []int, c *candidate) bool {
	known := 0
	for k, want := range c.values {
		if want == "" {
			continue
		}
		known++
		holds := func(row []string) bool {
			if col >= len(row) {
				return false
			}
			got, err := cells.Map(p, row[col], c.options)
			return err == nil && sameSet(got, want)
		}
		if rows != nil {
			if !holds(g.opts.SampleRows[rows[k]]) {
				return false
			}
		} else if !slices.ContainsFunc(g.opts.SampleRows, holds) {
			return false
		}
	}
	return known > 0
}

// splitsAll reports whether every cell, split by p, names options only.
func splitsAll(p skills.Parameter, sample []string, opts []skills.Option) bool {
	for _, cell := range sample {
		if _, err := cells.Map(p, cell, opts); err != nil {
			return false
		}
	}
	return true
}

// sameSet reports whether two lists of items, one per line, hold the same
// items in any order, compared loosely (skills.Loose).
func sameSet(a, b string) bool {
	items := func(s string) []string {
		var out []string
		for _, it := range strings.Split(s, "\n") {
			if f := skills.Loose(it); f != "" && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(items(a), items(b))
}

// sepName says a separator for a person.
func sepName(sep string) string {
	if sep == "\n" {
		return "line breaks"
	}
	return "\"" + sep + "\""
}

// settleShape settles how the column writes c's values where that is a
// question of shape: the dates of a date column (read from the sample
// rows, or asked when two ways of writing read them all, as 03/04/2027
// does), and what splits a list column's cells. The person's answers
// (name/written=DD/MM/YYYY, name/separator=|) come first.
func (g *builder) settleShape(c *candidate) error {
	switch c.typ {
	case skills.TypeList:
		if a, ok := g.opts.Confirm[c.name+"/"+SeparatorKey]; ok {
			if strings.TrimSpace(a) == "" {
				return fmt.Errorf("%w: %s/separator=: give the mark that splits the cells, such as ; or |", ErrBadAnswer, c.name)
			}
			c.sep = strings.TrimSpace(a)
		}
		c.sep = cmp.Or(c.sep, ";")
	case events.ValueDate:
		if a, ok := g.opts.Confirm[c.name+"/"+WrittenKey]; ok {
			a = strings.TrimSpace(a)
			if strings.EqualFold(a, "iso") || a == "YYYY-MM-DD" {
				a = ""
			}
			if a != "" && !skills.ValidDateFormat(a) {
				return fmt.Errorf("%w: %s/written=%s: write the format with YYYY, YY, MMMM, MMM, MM, M, DD or D, such as DD/MM/YYYY, or iso",
					ErrBadAnswer, c.name, quoteShort(a))
			}
			for _, cell := range g.sampleCells(c.column) {
				if _, err := skills.ISODate(cell, a); cell != "" && err != nil {
					return fmt.Errorf("%w: %s/written=%s, but column %q holds cells that are not dates written so", ErrBadAnswer, c.name, quoteShort(cmp.Or(a, "iso")), c.column)
				}
			}
			c.written = a
			return nil
		}
		if c.written != "" || c.format != "" {
			return nil // read from the demonstrated rows already
		}
		ws := writtenAs(g.sampleCells(c.column))
		if len(ws) == 0 || ws[0] == "" {
			return nil // ISO, or no dates at all: the row check says which cells are not
		}
		if len(ws) == 1 {
			c.written = ws[0]
			g.note("Step %d (%q) reads the dates of column %q written %s.", c.step+1, c.label, c.column, ws[0])
			return nil
		}
		g.askDetail(c, AskDateFormat, fmt.Sprintf("Column %q writes its dates in a way that reads two ways (%s): which is it? Answer %s/written=<format>.",
			c.column, strings.Join(ws, " or "), c.name))
	}
	return nil
}
