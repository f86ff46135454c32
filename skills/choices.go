package skills

import (
	"cmp"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/reprise-dev/reprise/events"
)

// Errors MapCell wraps. They name no cell: a cell may be personal data.
var (
	ErrEmptyCell = errors.New("is empty, and the parameter is not optional")
	ErrNoOption  = errors.New("matches none of the options")
	ErrNotBool   = errors.New("is not a yes/no value")
	ErrLineBreak = errors.New("holds a line break, which no option does")
)

// accents removes combining marks after canonical decomposition: é is e.
var accents = runes.Remove(runes.In(unicode.Mn))

// Fold normalizes a label or a cell for matching one to the other: case,
// accents, runs of spaces, and a trailing colon or asterisk are ignored.
// "Côte d'Ivoire", "cote d'ivoire" and " COTE  D'IVOIRE:" are one.
func Fold(s string) string {
	t := transform.Chain(norm.NFD, accents, norm.NFC)
	if out, _, err := transform.String(t, s); err == nil {
		s = out
	}
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimSpace(strings.TrimRight(s, ":*"))
}

// Boolean words a cell may hold without a mapping: yes/no, true/false,
// 1/0, y/n, x/empty, checked/unchecked, on/off.
var (
	trueWords  = set("yes", "y", "true", "1", "x", "checked", "on")
	falseWords = set("no", "n", "false", "0", "", "unchecked", "off")
)

// MapCell turns a row's cell into what the parameter's step sets: an
// option's label for a choice among opts, "true" or "false" for a boolean,
// the cell itself otherwise. The person's confirmed mapping (p.Options)
// comes first, then an option's exact label or value, then the same
// folded (see Fold). An open choice (no opts) takes the cell as it is,
// for replay to match live. An empty cell is "" when p is optional ("false"
// for a boolean), else ErrEmptyCell.
func (p Parameter) MapCell(cell string, opts []Option) (string, error) {
	cell = strings.TrimSpace(cell)
	if p.Type == TypeList {
		return p.mapList(cell, opts)
	}
	if to, ok := p.mapped(cell); ok {
		return to, nil
	}
	if p.Written != "" && cell != "" {
		iso, err := ISODate(cell, p.Written)
		if err != nil {
			return "", err
		}
		cell = iso
	}
	if p.Format != "" && cell != "" {
		v, err := FormatDate(cell, p.Format)
		if err != nil {
			return "", ErrNotDate
		}
		if len(opts) == 0 {
			return v, nil
		}
		if o, ok := MatchOption(v, opts); ok {
			return cmp.Or(o.Label, o.Value), nil
		}
		return "", ErrNoOption
	}
	if p.Type == TypeBoolean {
		switch w := Fold(cell); {
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

// mapList maps each item of a list cell as MapCell maps a choice's cell,
// and returns the options one per line, each once: what the control must
// hold, in the cell's order. An item that names no option is ErrNoOption,
// wrapped with its place in the list (never its text).
func (p Parameter) mapList(cell string, opts []Option) (string, error) {
	items := p.Items(cell)
	if len(items) == 0 {
		if p.Optional {
			return "", nil
		}
		return "", ErrEmptyCell
	}
	seen := map[string]bool{}
	out := make([]string, 0, len(items))
	for i, it := range items {
		v, ok := p.mapped(it)
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
		if !seen[Fold(v)] {
			seen[Fold(v)] = true
			out = append(out, v)
		}
	}
	return strings.Join(out, "\n"), nil
}

// Items splits a list parameter's cell into its items, trimmed, leaving
// out empty ones ("a; ; b" and "a;b;" are two items).
func (p Parameter) Items(cell string) []string {
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

// mapped is the person's mapping of cell, exact first, then folded.
func (p Parameter) mapped(cell string) (string, bool) {
	if to, ok := p.Options[cell]; ok {
		return to, true
	}
	f := Fold(cell)
	for from, to := range p.Options {
		if Fold(from) == f {
			return to, true
		}
	}
	return "", false
}

// MatchOption finds the option a text names: its exact label, its exact
// value, then the same folded. Several options folding alike is no match:
// never a guess.
func MatchOption(text string, opts []Option) (Option, bool) {
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
	f := Fold(text)
	if f == "" {
		return Option{}, false // a cell of only spaces or marks names nothing
	}
	var hit *Option
	for i, o := range opts {
		if Fold(o.Label) == f || (o.Value != "" && Fold(o.Value) == f) {
			if hit != nil && hit.Label != o.Label {
				return Option{}, false
			}
			hit = &opts[i]
		}
	}
	if hit == nil {
		return Option{}, false
	}
	return *hit, true
}

// OptionsOf returns the closed set of options of the choice step whose
// value is the parameter name's placeholder, or nil for none (a text
// field, an open list).
func (s *Skill) OptionsOf(name string) []Option {
	for _, st := range s.Steps {
		if st.Value == Placeholder(name) && len(st.Options) > 0 {
			return st.Options
		}
	}
	return nil
}

// Cells maps a row's cells (parameter name to cell) onto the values the
// steps set (see MapCell). The error of each cell that does not map is in
// errs by parameter name; values holds the others.
func (s *Skill) Cells(cells map[string]string) (values map[string]string, errs map[string]error) {
	values = make(map[string]string, len(cells))
	for _, p := range s.Parameters {
		v, err := p.MapCell(cells[p.Name], s.OptionsOf(p.Name))
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
