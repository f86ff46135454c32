package learn

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// invField is a field of the form's inventory, with the skill step that
// listed it: a step added for the field goes just before that one.
type invField struct {
	events.Field
	at int
}

// account makes every CSV column and every per-row-looking field accounted
// for: a column is a parameter's, or ignored by the person's answer, or
// fills a field the person names; a field the demonstrations left alone
// that looks like per-row data is filled from a column or ignored by
// answer. Silence is not an answer: each open one is a question.
func (g *builder) account() error {
	inv := g.inventory()
	var unused []string
	suggested := map[string]bool{}
	for _, col := range g.opts.Header {
		if g.columnUsed(col) {
			continue
		}
		switch a := g.opts.Confirm[columnKey+col]; {
		case a == IgnoreAnswer:
			g.skill.Ignore = append(g.skill.Ignore, skills.Ignored{Column: col})
		case a != "":
			f := findField(inv, a)
			if f == nil {
				return fmt.Errorf("%w: column:%s=%s, but no field of the form is labelled so; the fields are %s",
					ErrBadAnswer, col, quoteShort(a), quoteList(fieldLabels(inv)))
			}
			if err := g.addFieldStep(*f, col); err != nil {
				return err
			}
		default:
			unused = append(unused, col)
		}
	}
	for _, col := range unused {
		fits := g.untouchedLike(inv, col)
		for _, f := range fits {
			suggested[skills.Loose(f.Label)] = true
		}
		g.askColumn(col, fits)
	}
	for _, f := range inv {
		if g.touched(f.Field) || !perRow(f.Label, fieldType(f.Field)) || f.Label == "" {
			continue
		}
		switch a := g.opts.Confirm[fieldKey+f.Label]; {
		case a == IgnoreAnswer:
			g.skill.Ignore = append(g.skill.Ignore, skills.Ignored{Field: f.Label})
		case a != "":
			col := strings.TrimPrefix(a, ColumnPrefix)
			if len(g.opts.Header) > 0 && !slices.Contains(g.opts.Header, col) {
				return fmt.Errorf("%w: field:%s=%s, but the CSV has no such column; its columns are %s",
					ErrBadAnswer, f.Label, quoteShort(col), quoteList(g.opts.Header))
			}
			if err := g.addFieldStep(f, col); err != nil {
				return err
			}
		case !suggested[skills.Loose(f.Label)]:
			g.questions = append(g.questions, Question{Kind: AskUntouchedField, Parameter: fieldKey + f.Label, Label: f.Label,
				Step: f.at + 1, Text: fmt.Sprintf("The field %q was left alone in every recording, and it looks like per-row data. Does a CSV column fill it? Answer field:%s=<column> or field:%s=ignore.",
					f.Label, f.Label, f.Label)})
		}
	}
	return nil
}

func (g *builder) askColumn(col string, fits []invField) {
	q := Question{Kind: AskUnusedColumn, Parameter: columnKey + col}
	hint := ""
	if len(fits) > 0 {
		q.Label, q.Step = fits[0].Label, fits[0].at+1
		hint = fmt.Sprintf(" Fields no step sets that resemble it: %s.", quoteList(fieldLabels(fits)))
	}
	q.Text = fmt.Sprintf("Column %q is used by no step: which field does it fill, or should it be ignored?%s Answer column:%s=<field label> or column:%s=ignore.",
		col, hint, col, col)
	g.questions = append(g.questions, q)
}

// columnUsed reports whether a parameter reads col, or an open question
// about one offers it (answering that question decides the column).
func (g *builder) columnUsed(col string) bool {
	for _, c := range g.cands {
		if !c.constant && c.column == col {
			return true
		}
	}
	for _, q := range g.questions {
		if slices.Contains(q.Columns, col) {
			return true
		}
	}
	return false
}

// inventory is the union of the fields the destructive steps listed in
// every recording, first listing first.
func (g *builder) inventory() []invField {
	var out []invField
	for i, c := range g.cols {
		for _, s := range c {
			if s == nil {
				continue
			}
			for _, f := range s.Fields {
				if !slices.ContainsFunc(out, func(x invField) bool { return sameField(x.Field, f) }) {
					out = append(out, invField{Field: f, at: i})
				}
			}
		}
	}
	return out
}

func sameField(a, b events.Field) bool {
	if a.Name != "" || b.Name != "" {
		return a.Name == b.Name && roleFamily(a.Role) == roleFamily(b.Role)
	}
	return skills.Loose(a.Label) == skills.Loose(b.Label) && roleFamily(a.Role) == roleFamily(b.Role)
}

// touched reports whether a step of the skill sets the field.
func (g *builder) touched(f events.Field) bool {
	for _, st := range g.skill.Steps {
		switch st.Action {
		case events.ActionFill, events.ActionSelect, events.ActionClick, events.ActionUpload:
		default:
			continue
		}
		for _, s := range st.Selectors {
			if (s.Strategy == events.StrategyName && s.Value == f.Name && f.Name != "") ||
				slices.ContainsFunc(f.Selectors, func(x events.Selector) bool {
					return (x.Strategy == events.StrategyID || x.Strategy == events.StrategyName) && x == events.Selector{Strategy: s.Strategy, Value: s.Value}
				}) {
				return true
			}
		}
		if f.Label != "" && skills.Loose(st.Label) == skills.Loose(f.Label) && roleFamily(st.Role) == roleFamily(f.Role) {
			return true
		}
	}
	return false
}

// untouchedLike returns the fields no step sets whose label resembles the
// column, best first.
func (g *builder) untouchedLike(inv []invField, col string) []invField {
	type scored struct {
		f invField
		s float64
	}
	var out []scored
	for _, f := range inv {
		if s := Similarity(f.Label, col); s >= 0.5 && !g.touched(f.Field) {
			out = append(out, scored{f, s})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].s > out[j].s })
	fs := make([]invField, 0, min(len(out), 3))
	for _, x := range out[:min(len(out), 3)] {
		fs = append(fs, x.f)
	}
	return fs
}

// addFieldStep adds a step that sets an untouched field from col, before
// the destructive step that listed it, with its parameter.
func (g *builder) addFieldStep(f invField, col string) error {
	st := skills.Step{Selectors: make([]skills.Selector, 0, len(f.Selectors)), Role: f.Role, Label: f.Label}
	for _, s := range f.Selectors {
		st.Selectors = append(st.Selectors, skills.Selector{Strategy: s.Strategy, Value: s.Value})
	}
	if len(st.Selectors) == 0 && f.Name != "" {
		st.Selectors = append(st.Selectors, skills.Selector{Strategy: events.StrategyName, Value: f.Name})
	}
	typ, readBack := fieldType(f.Field), skills.ReadBackValue
	switch roleFamily(f.Role) {
	case "choice":
		st.Action, typ, readBack = events.ActionSelect, events.ValueEnum, skills.ReadBackSelected
		for _, o := range f.Options {
			st.Options = append(st.Options, skills.Option{Label: o.Label, Value: o.Value})
		}
	case "box":
		st.Action, typ, readBack = events.ActionClick, skills.TypeBoolean, skills.ReadBackChecked
	default:
		st.Action = events.ActionFill
	}
	at := f.at
	g.skill.Steps = slices.Insert(g.skill.Steps, at, st)
	g.cols = slices.Insert(g.cols, at, column(nil))
	for _, c := range g.cands {
		if c.step >= at {
			c.step++
		}
	}
	name := nameFor(f.Label, nil)
	g.names[name]++
	if n := g.names[name]; n > 1 {
		name = fmt.Sprintf("%s_%d", name, n)
	}
	// No demonstration filled it: an empty cell leaves it as they did.
	c := &candidate{name: name, label: f.Label, step: at, typ: typ, column: col, readBack: readBack, options: st.Options,
		values: make([]string, g.n)}
	g.cands = append(g.cands, c)
	g.note("Step %d sets the field %q from column %q (your answer): no recorded step sets it, so the recordings say nothing of its values; an empty cell leaves it empty.", at+1, f.Label, col)
	return g.settle(c)
}

func findField(inv []invField, label string) *invField {
	for i := range inv {
		if skills.Loose(inv[i].Label) == skills.Loose(label) {
			return &inv[i]
		}
	}
	return nil
}

func fieldLabels(fs []invField) []string {
	out := make([]string, 0, len(fs))
	for _, f := range fs {
		if f.Label != "" {
			out = append(out, f.Label)
		}
	}
	return out
}

// fieldType is the parameter type a field's input type suggests.
func fieldType(f events.Field) string {
	switch strings.ToLower(f.Type) {
	case "email":
		return events.ValueEmail
	case "date", "datetime-local", "month":
		return events.ValueDate
	case "number":
		return events.ValueNumber
	}
	switch roleFamily(f.Role) {
	case "choice":
		return events.ValueEnum
	case "box":
		return skills.TypeBoolean
	}
	return events.ValueText
}

// roleFamily groups roles by how a step sets them.
func roleFamily(role string) string {
	switch r := roleKey(role); {
	case boxRole(r):
		return "box"
	case radioRole(r), r == "radiogroup", r == "listbox", r == "combobox", r == "menu", r == "popupbutton":
		return "choice"
	case r == "button", r == "link":
		return "action"
	}
	return "text"
}
