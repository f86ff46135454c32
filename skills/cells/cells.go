// Package cells maps a CSV row's cells onto the values a skill's steps
// set: a choice's option, a box's state, a list's items, a date written as
// its field takes it. Replay maps every row before it runs; learning maps
// the sample rows, so a row that cannot be filled is caught when the skill
// is built rather than at its turn. It is pure logic, and no error names a
// cell: a cell may be personal data.
package cells

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// Errors Map wraps. They name no cell: a cell may be personal data.
var (
	ErrEmptyCell = errors.New("is empty, and the parameter is not optional")
	ErrNoOption  = errors.New("matches none of the options")
	ErrNotBool   = errors.New("is not a yes/no value")
	ErrLineBreak = errors.New("holds a line break, which no option does")
)

// Boolean words a cell may hold without a mapping: yes/no, true/false,
// 1/0, y/n, x/empty, checked/unchecked, on/off.
var (
	trueWords  = map[string]bool{"yes": true, "y": true, "true": true, "1": true, "x": true, "checked": true, "on": true}
	falseWords = map[string]bool{"no": true, "n": true, "false": true, "0": true, "": true, "unchecked": true, "off": true}
)

// Map turns a row's cell into what the parameter's step sets: an
// option's label for a choice among opts, "true" or "false" for a boolean,
// the cell itself otherwise. The person's confirmed mapping (p.Options)
// comes first, then an option's exact label or value, then the same
// compared loosely (see skills.Loose). An open choice (no opts) takes the cell as it is,
// for replay to match live. An empty cell is "" when p is optional ("false"
// for a boolean), else ErrEmptyCell.
func Map(p skills.Parameter, cell string, opts []skills.Option) (string, error) {
	cell = strings.TrimSpace(cell)
	if p.Type == skills.TypeList {
		return mapList(p, cell, opts)
	}
	if to, ok := mapped(p, cell); ok {
		return to, nil
	}
	if p.Written != "" && cell != "" {
		iso, err := skills.ISODate(cell, p.Written)
		if err != nil {
			return "", err
		}
		cell = iso
	}
	if p.Format != "" && cell != "" {
		v, err := skills.FormatDate(cell, p.Format)
		if err != nil {
			return "", skills.ErrNotDate
		}
		if len(opts) == 0 {
			return v, nil
		}
		if o, ok := MatchOption(v, opts); ok {
			return cmp.Or(o.Label, o.Value), nil
		}
		return "", ErrNoOption
	}
	if p.Type == skills.TypeBoolean {
		switch w := skills.Loose(cell); {
		case trueWords[w]:
			return "true", nil
		case falseWords[w]:
			return "false", nil
		}
		return "", ErrNotBool
	}
	if cell == "" {
		if p.Optional {
			return "", nil
		}
		return "", ErrEmptyCell
	}
	if p.Type != events.ValueEnum || len(opts) == 0 {
		return cell, nil
	}
	if o, ok := MatchOption(cell, opts); ok {
		return cmp.Or(o.Label, o.Value), nil // an option shown with no text: its value names it
	}
	return "", ErrNoOption
}

// mapList maps each item of a list cell as Map maps a choice's cell,
// and returns the options one per line, each once: what the control must
// hold, in the cell's order. An item that names no option is ErrNoOption,
// wrapped with its place in the list (never its text).
func mapList(p skills.Parameter, cell string, opts []skills.Option) (string, error) {
	items := Items(p, cell)
	if len(items) == 0 {
		if p.Optional {
			return "", nil
		}
		return "", ErrEmptyCell
	}
	seen := map[string]bool{}
	out := make([]string, 0, len(items))
	for i, it := range items {
		v, ok := mapped(p, it)
		switch {
		case ok:
		case len(opts) > 0:
			o, found := MatchOption(it, opts)
			if !found {
				return "", &ItemError{N: i + 1, Err: ErrNoOption}
			}
			v = cmp.Or(o.Label, o.Value)
		default:
			v = it
		}
		if strings.ContainsAny(v, "\r\n") {
			return "", &ItemError{N: i + 1, Err: ErrLineBreak}
		}
		if !seen[skills.Loose(v)] {
			seen[skills.Loose(v)] = true
			out = append(out, v)
		}
	}
	return strings.Join(out, "\n"), nil
}

// Items splits a list parameter's cell into its items, trimmed, leaving
// out empty ones ("a; ; b" and "a;b;" are two items).
func Items(p skills.Parameter, cell string) []string {
	sep := cmp.Or(strings.TrimSpace(p.Separator), ";")
	if strings.Trim(p.Separator, " ") == "\n" {
		sep = "\n"
		cell = strings.ReplaceAll(cell, "\r\n", "\n")
	}
	var out []string
	for _, it := range strings.Split(cell, sep) {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out
}

// ItemError is an item of a list cell that does not map: its place in the
// list, from 1, and why. It never quotes the item.
type ItemError struct {
	N   int
	Err error
}

func (e *ItemError) Error() string { return fmt.Sprintf("item %d of the list %v", e.N, e.Err) }

// Unwrap lets callers test for the reason.
func (e *ItemError) Unwrap() error { return e.Err }

// mapped is the person's mapping of cell, exact first, then loosely.
func mapped(p skills.Parameter, cell string) (string, bool) {
	if to, ok := p.Options[cell]; ok {
		return to, true
	}
	f := skills.Loose(cell)
	for from, to := range p.Options {
		if skills.Loose(from) == f {
			return to, true
		}
	}
	return "", false
}

// MatchOption finds the option a text names: its exact label, its exact
// value, then the same loosely. Several options reading alike is no match:
// never a guess.
func MatchOption(text string, opts []skills.Option) (skills.Option, bool) {
	for _, o := range opts {
		if o.Label == text && text != "" {
			return o, true
		}
	}
	for _, o := range opts {
		if o.Value == text && text != "" {
			return o, true
		}
	}
	f := skills.Loose(text)
	if f == "" {
		return skills.Option{}, false // a cell of only spaces or marks names nothing
	}
	var hit *skills.Option
	for i, o := range opts {
		if skills.Loose(o.Label) == f || (o.Value != "" && skills.Loose(o.Value) == f) {
			if hit != nil && hit.Label != o.Label {
				return skills.Option{}, false
			}
			hit = &opts[i]
		}
	}
	if hit == nil {
		return skills.Option{}, false
	}
	return *hit, true
}

// Values maps a row's cells (parameter name to cell) onto the values the
// steps set (see Map). The error of each cell that does not map is in
// errs by parameter name; values holds the others.
func Values(s *skills.Skill, cells map[string]string) (values map[string]string, errs map[string]error) {
	values = make(map[string]string, len(cells))
	for _, p := range s.Parameters {
		v, err := Map(p, cells[p.Name], s.OptionsOf(p.Name))
		if err != nil {
			if errs == nil {
				errs = map[string]error{}
			}
			errs[p.Name] = err
			continue
		}
		values[p.Name] = v
	}
	return values, errs
}
