package zoo

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The columns and checks of the library forms: a list in one cell, a date
// in a people's format, a label stored as itself.

// listCol makes a column whose cell lists option labels split by sep; the
// form stores the chosen labels one per line, and the checker compares
// them as sets. An empty cell is an empty list.
func listCol(name, fld, sep string, options []string) Column {
	return Column{Name: name, Fields: []string{fld}, Choice: true,
		Rule: fmt.Sprintf("option labels split by %q; stored as the set of labels", sep),
		expect: func(c string) (map[string]string, error) {
			items := splitList(c, sep)
			for _, it := range items {
				if !slices.Contains(options, it) {
					return nil, fmt.Errorf("%q names no option", it)
				}
			}
			return map[string]string{fld: strings.Join(items, "\n")}, nil
		},
		same: func(want, got string) bool { return slices.Equal(sortedItems(want), sortedItems(got)) }}
}

// splitList splits a list cell and trims its items; "" is no items.
func splitList(cell, sep string) []string {
	if strings.TrimSpace(cell) == "" {
		return nil
	}
	var out []string
	for _, it := range strings.Split(cell, strings.TrimSpace(sep)) {
		out = append(out, strings.TrimSpace(it))
	}
	return out
}

// sortedItems is a stored list's items, sorted: two lists hold the same
// set when these are equal (a repeated item makes them differ).
func sortedItems(v string) []string {
	items := strings.FieldsFunc(v, func(r rune) bool { return r == '\n' })
	slices.Sort(items)
	return items
}

// dateCol makes a column with a date written in layout; the form stores
// it as YYYY-MM-DD, and the checker compares the dates. An empty cell
// stays empty.
func dateCol(name, fld, layout string) Column {
	return Column{Name: name, Fields: []string{fld}, Rule: "a date written as " + layout + "; stored as YYYY-MM-DD",
		expect: func(c string) (map[string]string, error) {
			if c == "" {
				return map[string]string{fld: ""}, nil
			}
			t, err := time.Parse(layout, c)
			if err != nil {
				return nil, fmt.Errorf("%q is not a date written as %s", c, layout)
			}
			return map[string]string{fld: t.Format(time.DateOnly)}, nil
		},
		same: func(want, got string) bool {
			if want == "" || got == "" {
				return want == got
			}
			w, err1 := time.Parse(time.DateOnly, want)
			g, err2 := time.Parse(time.DateOnly, got)
			return err1 == nil && err2 == nil && w.Equal(g)
		}}
}

// cellDate reads a date cell written in layout; the zero time for "".
func cellDate(cell, layout string) (time.Time, error) {
	if cell == "" {
		return time.Time{}, nil
	}
	return time.Parse(layout, cell)
}

// labels makes choices whose value is their label.
func labels(ls ...string) []choice {
	cs := make([]choice, len(ls))
	for i, l := range ls {
		cs[i] = choice{l, l}
	}
	return cs
}

// listOf checks a stored list: known labels, none twice.
func listOf(options []string) func(string) string {
	return func(v string) string {
		items := strings.Split(v, "\n")
		for i, it := range items {
			if !slices.Contains(options, it) {
				return "choose from the options"
			}
			if slices.Contains(items[:i], it) {
				return it + " is chosen twice"
			}
		}
		return ""
	}
}

var isoDate = layoutCheck(time.DateOnly, "YYYY-MM-DD")

// pickN draws 1 to max distinct items of list, in a random order.
func (g *gen) pickN(list []string, max int) []string {
	n := 1 + g.r.IntN(max)
	idx := g.r.Perm(len(list))[:n]
	out := make([]string, n)
	for i, j := range idx {
		out[i] = list[j]
	}
	return out
}
