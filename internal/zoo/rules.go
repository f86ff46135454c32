package zoo

import (
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode"
)

// field is one value a form stores, as the server validates it.
type field struct {
	name, label string
	required    bool
	// check returns what is wrong with a non-empty value, or "".
	check func(v string) string
}

// choice is one option of a choice control: the value the page submits
// and the label a person reads.
type choice struct{ Value, Label string }

// labelOf returns the label of the option with this value.
func labelOf(cs []choice, value string) string {
	for _, c := range cs {
		if c.Value == value {
			return c.Label
		}
	}
	return ""
}

func isEmail(v string) string {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || !strings.Contains(v[strings.LastIndex(v, "@"):], ".") {
		return "enter an address like name@example.com"
	}
	return ""
}

func oneOf(cs []choice) func(string) string {
	return func(v string) string {
		if labelOf(cs, v) == "" {
			return "choose one of the options"
		}
		return ""
	}
}

func inList(list []string, msg string) func(string) string {
	return func(v string) string {
		for _, s := range list {
			if s == v {
				return ""
			}
		}
		return msg
	}
}

func layoutCheck(layout, hint string) func(string) string {
	return func(v string) string {
		if t, err := time.Parse(layout, v); err != nil || t.Format(layout) != v {
			return "enter a date as " + hint
		}
		return ""
	}
}

var usPhone = regexp.MustCompile(`^\(\d{3}\) \d{3}-\d{4}$`)

func isPhone(v string) string {
	if !usPhone.MatchString(v) {
		return "enter ten digits, like (555) 123-4567"
	}
	return ""
}

func isZip(v string) string {
	if len(v) != 5 || strings.Trim(v, "0123456789") != "" {
		return "enter five digits"
	}
	return ""
}

// Columns: each says how a CSV cell becomes the stored value(s).

func text(name, fld string) Column {
	return Column{Name: name, Fields: []string{fld}, Rule: "the cell as it is",
		expect: func(c string) (map[string]string, error) { return map[string]string{fld: c}, nil }}
}

func unused(name string) Column {
	return Column{Name: name, Rule: "no field uses it",
		expect: func(string) (map[string]string, error) { return nil, nil }}
}

// pick makes a choice column: match finds the option a cell names.
func pick(name, fld, rule string, cs []choice, match func(cell string, c choice) bool) Column {
	return Column{Name: name, Fields: []string{fld}, Choice: true, Rule: rule,
		expect: func(cell string) (map[string]string, error) {
			for _, c := range cs {
				if match(cell, c) {
					return map[string]string{fld: c.Value}, nil
				}
			}
			return nil, fmt.Errorf("%q names no option", cell)
		}}
}

func byLabel(name, fld string, cs []choice) Column {
	return pick(name, fld, "the option's label; stored as its value", cs,
		func(cell string, c choice) bool { return cell == c.Label })
}

func byValue(name, fld string, cs []choice) Column {
	return pick(name, fld, "the option's value, stored as it is", cs,
		func(cell string, c choice) bool { return cell == c.Value })
}

func byFolded(name, fld string, cs []choice) Column {
	return pick(name, fld, "the option's label in any case, accents optional; stored as its value", cs,
		func(cell string, c choice) bool { return fold(cell) == fold(c.Label) })
}

// flag makes a boolean column: the cell on or off becomes stored on or off.
func flag(name, fld string, cellOn, cellOff, storedOn, storedOff string) Column {
	return Column{Name: name, Fields: []string{fld}, Choice: true,
		Rule: fmt.Sprintf("%q or %q; stored as %q or %q", cellOn, cellOff, storedOn, storedOff),
		expect: func(c string) (map[string]string, error) {
			switch c {
			case cellOn:
				return map[string]string{fld: storedOn}, nil
			case cellOff:
				return map[string]string{fld: storedOff}, nil
			}
			return nil, fmt.Errorf("%q is neither %q nor %q", c, cellOn, cellOff)
		}}
}

// date makes an ISO date column stored in layout; an empty cell stays empty.
func date(name, fld, layout string) Column {
	return Column{Name: name, Fields: []string{fld}, Rule: "YYYY-MM-DD; stored as " + layout,
		expect: func(c string) (map[string]string, error) {
			if c == "" {
				return map[string]string{fld: ""}, nil
			}
			t, err := time.Parse(time.DateOnly, c)
			if err != nil {
				return nil, fmt.Errorf("%q is not YYYY-MM-DD", c)
			}
			return map[string]string{fld: t.Format(layout)}, nil
		}}
}

// splitDate makes an ISO date column that three selects fill.
func splitDate(name, day, month, year string) Column {
	return Column{Name: name, Fields: []string{day, month, year}, Choice: true,
		Rule: "YYYY-MM-DD; stored as day, month and year numbers without leading zeros",
		expect: func(c string) (map[string]string, error) {
			t, err := time.Parse(time.DateOnly, c)
			if err != nil {
				return nil, fmt.Errorf("%q is not YYYY-MM-DD", c)
			}
			return map[string]string{day: fmt.Sprint(t.Day()), month: fmt.Sprint(int(t.Month())), year: fmt.Sprint(t.Year())}, nil
		}}
}

// phoneCol: any US writing of a number; stored as the page formats it.
func phoneCol(name, fld string) Column {
	return Column{Name: name, Fields: []string{fld}, Rule: "ten digits in any format, +1 optional; stored as (555) 123-4567",
		expect: func(c string) (map[string]string, error) {
			d := phoneDigits(c)
			if len(d) != 10 {
				return nil, fmt.Errorf("%q is not a ten-digit number", c)
			}
			return map[string]string{fld: "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]}, nil
		}}
}

// phoneDigits returns the digits a person types for a US number.
func phoneDigits(s string) string {
	d := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	return d
}

// fold lower-cases s and drops the accents of Latin letters.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if a, ok := plain[r]; ok {
			return a
		}
		return unicode.ToLower(r)
	}, strings.ToLower(s))
}

var plain = func() map[rune]rune {
	m := map[rune]rune{}
	for base, accented := range map[rune]string{
		'a': "àáâãäå", 'c': "ç", 'e': "èéêë", 'i': "ìíîï", 'n': "ñ",
		'o': "òóôõöø", 'u': "ùúûü", 'y': "ýÿ",
	} {
		for _, r := range accented {
			m[r] = base
		}
	}
	return m
}()
