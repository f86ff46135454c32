package learn

import (
	"fmt"
	"slices"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// finish writes the decided values into the steps, declares the parameters,
// marks destructive steps (with what success looked like and the values
// the page echoed) and picks the dedupe key.
func (g *builder) finish() error {
	g.mergeSameColumn()
	inRepeated(g.skill.Steps)
	declared := map[string]bool{}
	for _, c := range g.cands {
		st := &g.skill.Steps[c.step]
		var v string
		if c.constant {
			v = skills.Literal(c.values[0])
		} else {
			v = skills.Placeholder(c.name)
			if !declared[c.name] {
				declared[c.name] = true
				g.skill.Parameters = append(g.skill.Parameters, skills.Parameter{Name: c.name, Column: c.column, Type: c.typ,
					Optional: c.optional, Options: c.mapping, Format: c.format, Written: c.written, Separator: c.sep})
			}
		}
		v = skills.Literal(c.prefix) + v + skills.Literal(c.suffix)
		st.Value = v
		if b := c.shownBy; b != nil && !b.constant && !b.asked {
			st.If = skills.Placeholder(b.name)
		}
		if c.readBack != "" {
			st.ReadBack = &skills.ReadBack{Kind: c.readBack, Expect: v}
		}
	}
	if err := g.markDestructive(); err != nil {
		return err
	}
	g.echoes()
	// A value redacted at capture is secret-shaped (a card number): it must
	// not become a dedupe key, which replay records in the clear.
	var keyable []skills.Parameter
	for _, p := range g.skill.Parameters {
		if !slices.ContainsFunc(g.cands, func(c *candidate) bool { return c.name == p.Name && c.unknown }) {
			keyable = append(keyable, p)
		}
	}
	g.skill.DedupeKey = defaultDedupe(keyable)
	if len(g.opts.DedupeKey) > 0 {
		for _, k := range g.opts.DedupeKey {
			if !declared[k] {
				return fmt.Errorf("%w: dedupe key %s is not a parameter; the parameters are %s", ErrBadAnswer, k, g.candNames())
			}
		}
		g.skill.DedupeKey = slices.Clone(g.opts.DedupeKey)
	}
	return nil
}

// mergeSameColumn makes one parameter of two that were joined to the same
// column and had the same values in every recording: an email typed again
// in a "Confirm email" field is one column, not two.
func (g *builder) mergeSameColumn() {
	first := map[string]*candidate{}
	for _, c := range g.cands {
		if c.constant || c.asked || c.unknown || c.column == "" {
			continue
		}
		f, ok := first[c.column]
		if !ok {
			first[c.column] = c
			continue
		}
		if slices.Equal(f.values, c.values) {
			g.note("Steps %d and %d take the same column %q: they share the parameter %s.", f.step+1, c.step+1, c.column, f.name)
			c.name = f.name
		}
	}
}

// endsPage reports whether no input follows on the same page.
func endsPage(rest []skills.Step) bool {
	for _, st := range rest {
		switch {
		case st.Action == events.ActionNavigate:
			return true
		case st.Action == events.ActionFill, st.Action == events.ActionSelect, st.Action == events.ActionUpload,
			st.ReadBack != nil:
			return false
		}
	}
	return true
}
