package skills

import (
	"errors"
	"strings"
	"time"
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
