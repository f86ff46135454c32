package skills

import (
	"errors"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// A date parameter reads an ISO date from its column (2024-03-15) and may
// write it as the field wants it, by a format of tokens: YYYY, YY, MMMM
// (March), MMM (Mar), MM (03), M (3), DD (05), D (5), and any other text
// kept as it is. A masked field takes "MM/DD/YYYY"; three selects take "D",
// "MMMM" and "YYYY" of one column.

// ErrNotDate is returned for a cell that is not an ISO date, or a format
// that has no date token.
var ErrNotDate = errors.New("is not a date written YYYY-MM-DD")

// isoLayouts are the dates a date cell may hold, as replay's row check
// accepts them.
var isoLayouts = []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// dateTokens map a format's tokens to Go's layout, longest first so MMMM
// is read before MM.
var dateTokens = []struct{ token, layout string }{
	{"YYYY", "2006"}, {"MMMM", "January"}, {"MMM", "Jan"}, {"YY", "06"},
	{"MM", "01"}, {"DD", "02"}, {"M", "1"}, {"D", "2"},
}

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

// ISODate reads cell as written says a column writes dates and returns it
// as ISO 8601 (2027-03-15); written "" is ISO. Zeros in front of a day or
// a month may be there or not, and month names may be in any case.
func ISODate(cell, written string) (string, error) {
	cell = strings.TrimSpace(cell)
	if written == "" {
		d, err := parseISODate(cell)
		if err != nil {
			return "", err
		}
		return d.Format(time.DateOnly), nil
	}
	layout, ok := goLayout(written)
	if !ok {
		return "", ErrNotDate
	}
	loose, _ := goLayout(strings.NewReplacer("MMMM", "MMMM", "MMM", "MMM", "MM", "M", "DD", "D").Replace(written))
	for _, l := range []string{layout, loose} {
		if d, err := time.Parse(l, cell); err == nil {
			return d.Format(time.DateOnly), nil
		}
	}
	return "", ErrNotDate
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
			if _, err := ISODate(c, f); err != nil {
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

// goLayout turns a format into Go's layout; ok is false when the format
// has no date token (it would write the same text for every row).
func goLayout(format string) (layout string, ok bool) {
	var b strings.Builder
	for rest := format; rest != ""; {
		matched := false
		for _, t := range dateTokens {
			if strings.HasPrefix(rest, t.token) {
				b.WriteString(t.layout)
				rest = rest[len(t.token):]
				matched, ok = true, true
				break
			}
		}
		if !matched {
			// Go would read a digit as part of a layout: keep digits out.
			if r := rest[0]; r >= '0' && r <= '9' {
				return "", false
			}
			b.WriteByte(rest[0])
			rest = rest[1:]
		}
	}
	return b.String(), ok
}

// ValidDateFormat reports whether format writes a date.
func ValidDateFormat(format string) bool {
	_, ok := goLayout(format)
	return ok
}

// FormatDate writes the ISO date cell in format.
func FormatDate(cell, format string) (string, error) {
	layout, ok := goLayout(format)
	if !ok {
		return "", ErrNotDate
	}
	d, err := parseISODate(cell)
	if err != nil {
		return "", err
	}
	return d.Format(layout), nil
}

func parseISODate(cell string) (time.Time, error) {
	for _, l := range isoLayouts {
		if d, err := time.Parse(l, strings.TrimSpace(cell)); err == nil {
			return d, nil
		}
	}
	return time.Time{}, ErrNotDate
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
					got, err := ISODate(row[col], w)
					if err == nil && f != "" {
						got, err = FormatDate(got, f)
					}
					all = all && err == nil && Fold(got) == Fold(c.values[k])
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
func writesOptions(format string, opts []Option) bool {
	if len(opts) == 0 {
		return false
	}
	for _, probe := range []string{"2000-01-01", "2000-01-09"} {
		v, err := FormatDate(probe, format)
		if err != nil {
			return false
		}
		if _, ok := MatchOption(v, opts); !ok {
			return false
		}
	}
	return true
}
