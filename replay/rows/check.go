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
	"github.com/reprise-dev/reprise/skills/cells"
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

// Check reports every cell of r that does not fit its parameter in skill;
// see Fill.
func (r Row) Check(skill *skills.Skill) error {
	_, err := r.Fill(skill)
	return err
}

// Fill returns the values r's steps set, by parameter name: each cell
// checked against its parameter and mapped (cells.Map) onto
// a choice's option or a box's state. A cell is required unless its
// parameter is optional (a box's empty cell is unchecked); number, email
// and date cells must parse; a choice's cell must name one of its options.
// The error is nil or the errors.Join of one *ValueError per bad cell, so
// the person fixes the row in one pass.
func (r Row) Fill(skill *skills.Skill) (map[string]string, error) {
	var errs []error
	values := make(map[string]string, len(skill.Parameters))
	for _, p := range skill.Parameters {
		cell := r.Values[p.Name]
		problem := ""
		if strings.TrimSpace(cell) != "" || !p.Optional {
			problem = checkValue(p, cell)
		}
		if problem == "" {
			var item *cells.ItemError
			v, err := cells.Map(p, cell, skill.OptionsOf(p.Name))
			switch {
			case errors.As(err, &item):
				problem = fmt.Sprintf("item %d of the list (split by %s) %s", item.N, sepName(p.Separator), itemProblem(item.Err, skill.OptionsOf(p.Name)))
			case errors.Is(err, cells.ErrNoOption):
				problem = fmt.Sprintf("matches none of the options of the field (%s): use one of them, or map it in the skill's options", optionList(skill.OptionsOf(p.Name)))
			case errors.Is(err, cells.ErrNotBool):
				problem = "is not yes/no, true/false, 1/0, y/n, x/empty or checked/unchecked: use one of them, or map it in the skill's options"
			case err != nil:
				problem = err.Error()
			case p.Type == events.ValueFile && strings.TrimSpace(cell) != "":
				// Checked now, so a missing file refuses the row before
				// any of its steps runs.
				files, ferr := ResolveFiles(cell, r.Dir)
				if ferr != nil {
					problem = ferr.Error()
				}
				v = strings.Join(files, "\n")
			}
			values[p.Name] = v
		}
		if problem != "" {
			errs = append(errs, &ValueError{Row: r.N, Line: r.Line, Param: p.Name, Column: p.Column, Type: p.Type, Problem: problem})
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return values, nil
}

// optionList names a field's options for an error: they are the form's
// words, not the row's.
func optionList(opts []skills.Option) string {
	const most = 8
	var b strings.Builder
	for i, o := range opts {
		if i == most {
			fmt.Fprintf(&b, ", and %d more", len(opts)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", o.Label)
	}
	return b.String()
}

// itemProblem says what is wrong with a list's item.
func itemProblem(err error, opts []skills.Option) string {
	if errors.Is(err, cells.ErrNoOption) {
		return fmt.Sprintf("matches none of the options of the field (%s): use one of them, or map it in the skill's options", optionList(opts))
	}
	return err.Error()
}

// sepName says a list's separator for a person.
func sepName(sep string) string {
	if strings.Trim(sep, " ") == "\n" {
		return "line breaks"
	}
	return fmt.Sprintf("%q", strings.TrimSpace(sep))
}

// checkValue says what is wrong with v as p's value, or "" when nothing is.
func checkValue(p skills.Parameter, v string) string {
	t := p.Type
	if t == skills.TypeBoolean {
		return "" // an empty cell is unchecked; cells.Map reads the rest
	}
	if strings.TrimSpace(v) == "" {
		return "is empty: the field needs a value in every row (or make the parameter optional in the skill)"
	}
	switch t {
	case events.ValueText, events.ValueEnum, events.ValueFile, skills.TypeList:
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
		if p.Written != "" {
			if _, err := skills.ISODate(v, p.Written); err != nil {
				return fmt.Sprintf("is not a date written %s, as the column's dates are", p.Written)
			}
			return ""
		}
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
