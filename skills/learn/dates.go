package learn

import (
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/cells"
)

// dateFormats are the formats the builder tries against what the
// recordings typed or chose, most specific first: each part alone (for a
// select per part), then whole dates as forms commonly write them.
var dateFormats = []string{
	"DD", "D", "MMMM", "MMM", "MM", "M", "YYYY", "YY",
	"MM/DD/YYYY", "M/D/YYYY", "DD/MM/YYYY", "D/M/YYYY", "DD.MM.YYYY", "D.M.YYYY",
	"MM-DD-YYYY", "DD-MM-YYYY", "YYYY/MM/DD", "MMMM D, YYYY", "D MMMM YYYY", "MMM D, YYYY", "D MMM YYYY",
}

// writtenFormats are the ways a CSV column commonly writes whole dates,
// as people export them, besides ISO. Day-first and month-first both
// read 03/04/2027: the sample rows, and the rows the demonstrations
// filed, tell them apart, or the person does.
var writtenFormats = []string{
	"MM/DD/YYYY", "DD/MM/YYYY", "DD.MM.YYYY", "MM-DD-YYYY", "DD-MM-YYYY", "YYYY/MM/DD",
	"MM/DD/YY", "DD/MM/YY", "DD.MM.YY",
	"MMMM D, YYYY", "D MMMM YYYY", "MMM D, YYYY", "D MMM YYYY", "MMMM D YYYY", "MMM D YYYY", "D. MMMM YYYY",
	"DD-MMM-YYYY", "DD-MMM-YY", "DD MMM YYYY", "YYYY.MM.DD", "YYYYMMDD",
}

// writtenAs returns the formats (ISO as "") that read every non-empty
// cell, ISO first; none when a cell is no date or no cell is one.
func writtenAs(cells []string) []string {
	var out []string
	for _, f := range append([]string{""}, writtenFormats...) {
		all, some := true, false
		for _, c := range cells {
			if strings.TrimSpace(c) == "" {
				continue
			}
			some = true
			if _, err := skills.ISODate(c, f); err != nil {
				all = false
				break
			}
		}
		if all && some {
			out = append(out, f)
		}
	}
	return out
}

// datePartWords name a field that holds one part of a date.
var datePartWords = set("day", "month", "year", "dd", "mm", "yyyy", "yy", "dob", "birth", "born", "date")

// singlePart reports whether a format writes one part of a date alone.
func singlePart(f string) bool {
	return f != "" && !strings.ContainsAny(f, "/.-, ") && len(f) <= 4
}

// dateFit is how a date column fills a field: the column, how it writes
// its dates (Written; "" is ISO) and how the field takes them (Format; ""
// is as ISO).
type dateFit struct{ column, written, format string }

// joinByDateParts finds the one date column, with how it writes dates and
// the format the field takes, that gave what each recording typed or
// chose for c from the row it demonstrated: a masked "03/15/1990", "15",
// "March" and "1990" in three selects, or an ISO date read from sections
// or a calendar, from a column written 15.03.1990. A fit is said only when
// the recordings leave one; where "5" and "05" both fit, the choice's
// options decide. A column whose cells two ways of writing read (all
// days 12 or less) is told apart by the demonstrated rows, or not joined.
func (g *builder) joinByDateParts(c *candidate) (fit dateFit) {
	rows := g.demoRows()
	if rows == nil || len(c.values) != g.n {
		return dateFit{}
	}
	// A part of a date alone ("3" for March) fits many a number: only a
	// choice among parts, or a field named for one, is read as one.
	parts := c.typ == events.ValueEnum || c.typ == events.ValueDate || anyIn(c.label, datePartWords)
	var fits []dateFit
	for col, name := range g.opts.Header {
		for _, w := range writtenAs(g.sampleCells(name)) {
			for _, f := range append(dateFormats, "") {
				if !parts && singlePart(f) {
					continue
				}
				all, known := true, 0
				for k, r := range rows {
					row := g.opts.SampleRows[r]
					if c.values[k] == "" {
						continue // an optional date left empty says nothing of its format
					}
					known++
					if col >= len(row) {
						all = false
						break
					}
					got, err := skills.ISODate(row[col], w)
					if err == nil && f != "" {
						got, err = skills.FormatDate(got, f)
					}
					all = all && err == nil && skills.Loose(got) == skills.Loose(c.values[k])
				}
				if all && known > 0 && !(w == "" && f == "") {
					fits = append(fits, dateFit{name, w, f})
				}
			}
		}
	}
	if len(fits) == 0 {
		return dateFit{}
	}
	for _, f := range fits[1:] {
		if f.column != fits[0].column || f.written != fits[0].written {
			return dateFit{} // two columns, or two readings of one, fit: never a guess
		}
	}
	// Several formats agree with what the recordings did (15 and 23 are
	// both D and DD): the one that writes every option's way wins, else
	// the zero-padded one, as masks and pickers write dates; a field that
	// took the date as ISO needs none.
	best := fits[0]
	for _, f := range fits {
		if f.format == "" {
			return f
		}
	}
	for _, f := range fits {
		if writesOptions(f.format, c.options) {
			return f
		}
		if len(f.format) > len(best.format) {
			best = f
		}
	}
	return best
}

// writesOptions reports whether format writes dates the way the options
// are labelled: the first of the month and of the year are among them.
func writesOptions(format string, opts []skills.Option) bool {
	if len(opts) == 0 {
		return false
	}
	for _, probe := range []string{"2000-01-01", "2000-01-09"} {
		v, err := skills.FormatDate(probe, format)
		if err != nil {
			return false
		}
		if _, ok := cells.MatchOption(v, opts); !ok {
			return false
		}
	}
	return true
}
