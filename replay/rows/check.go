package rows

import (
	"errors"
	"fmt"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// ErrBadValue is wrapped by every ValueError.
var ErrBadValue = errors.New("bad value")

// DateLayouts are the dates a date parameter accepts: ISO 8601 only.
// Slash dates are refused because 03/04/2025 is March in one country and
// April in the next, and a wrong date filed is worse than a row refused.
var DateLayouts = []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02T15:04:05"}

// number is a decimal with optional sign, thousands commas in groups of
// three, fraction and exponent. "1,5" is refused: it is 1.5 in much of the
// world and fifteen in the rest. NaN, Inf, hex and underscores are refused.
var number = regexp.MustCompile(`^[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$`)

// ValueError is one cell that does not fit its parameter. It names where
// the cell is and what was expected, never what it holds.
type ValueError struct {
	Row, Line int
	Param     string
	Column    string
	Type      string
	Problem   string // what is wrong and what to do, without the value
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("row %d (line %d): parameter %s (column %q, type %s) %s",
		e.Row, e.Line, e.Param, e.Column, e.Type, e.Problem)
}

// Unwrap lets callers test for ErrBadValue.
func (e *ValueError) Unwrap() error { return ErrBadValue }

// Check reports every cell of r that does not fit its parameter in skill:
// every parameter is required, and number, email and date cells must parse.
// It returns nil or the errors.Join of one *ValueError per bad cell, so the
// person fixes the row in one pass.
func (r Row) Check(skill *skills.Skill) error {
	var errs []error
	for _, p := range skill.Parameters {
		if problem := checkValue(p.Type, r.Values[p.Name]); problem != "" {
			errs = append(errs, &ValueError{Row: r.N, Line: r.Line, Param: p.Name, Column: p.Column, Type: p.Type, Problem: problem})
		}
	}
	return errors.Join(errs...)
}

// checkValue says what is wrong with v as a t, or "" when nothing is.
func checkValue(t, v string) string {
	if strings.TrimSpace(v) == "" {
		return "is empty: every parameter needs a value in every row"
	}
	switch t {
	case events.ValueText, events.ValueEnum, events.ValueFile:
		return ""
	case events.ValueNumber:
		if !isNumber(v) {
			return "is not a number: write digits with an optional sign, a point for decimals and commas only between thousands, such as -1,234.50"
		}
	case events.ValueEmail:
		if !isEmail(v) {
			return "is not an email address: write one bare address such as name@example.com"
		}
	case events.ValueDate:
		if !isDate(v) {
			return "is not a date: write it as YYYY-MM-DD, optionally with a time as YYYY-MM-DDTHH:MM"
		}
	default:
		return "has a type replay does not know: rebuild the skill"
	}
	return ""
}

func isNumber(v string) bool {
	if !number.MatchString(v) {
		return false
	}
	// The pattern fixes the shape; ParseFloat refuses what overflows.
	_, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
	return err == nil
}

// isEmail accepts one bare address: a display name or a list would be
// typed into the field as is and fail there, after the row has started.
func isEmail(v string) bool {
	a, err := mail.ParseAddress(v)
	return err == nil && a.Name == "" && a.Address == v
}

func isDate(v string) bool {
	for _, layout := range DateLayouts {
		if _, err := time.Parse(layout, v); err == nil {
			return true
		}
	}
	return false
}
