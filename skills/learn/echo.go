package learn

import (
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// echoes gives each destructive step its echo: the parameters whose value
// the page after it showed in every demonstration (a confirmation page,
// the saved record, a row in a list), as placeholders in the order of the
// parameters. The recorder compared the values in the browser and kept
// only the labels of the fields that showed (events.Effect.Echoed); a
// parameter is echoed when, in each recording, a step that set it before
// this destructive step (and after the one before), and none after it
// set a field of that label again, has one of those labels. A constant, a secret, a file, a value redacted at capture and a
// part of a URL are never echoed. A recording that saw no effect, or an
// older one without echoed, echoes nothing, so the step gets no echo.
func (g *builder) echoes() {
	from := 0
	for i := range g.skill.Steps {
		st := &g.skill.Steps[i]
		if !st.Destructive {
			continue
		}
		st.Echo = g.echo(from, i)
		from = i + 1
		if len(st.Echo) > 0 {
			g.note("Step %d (%s) files the row only when the page after it shows the row's %s, as every demonstration's did.",
				i+1, skills.DescribeStep(st), strings.Join(echoNames(st.Echo), ", "))
		}
	}
}

// echo is the echo of destructive step i, whose form's fields are the
// steps from on.
func (g *builder) echo(from, i int) []string {
	effects := g.effects(i)
	if effects == nil {
		return nil
	}
	var out []string
	for _, p := range g.skill.Parameters {
		shown := true
		for k, e := range effects {
			shown = shown && len(e.Echoed) > 0 && g.echoedIn(p.Name, k, from, i, e.Echoed)
		}
		if shown {
			out = append(out, skills.Placeholder(p.Name))
		}
	}
	return out
}

// echoedIn reports whether recording k set parameter name, between skill
// steps from and i, in a field whose label is among echoed.
func (g *builder) echoedIn(name string, k, from, i int, echoed []string) bool {
	for _, c := range g.cands {
		if c.name != name || c.step < from || c.step >= i || !echoable(c, &g.skill.Steps[c.step]) || c.step >= len(g.cols) {
			continue
		}
		s := g.cols[c.step][k]
		if s == nil {
			continue // left alone in this recording: nothing of it to show
		}
		l := skills.Loose(labelOf(s))
		if l != "" && slices.ContainsFunc(echoed, func(e string) bool { return skills.Loose(e) == l }) && !g.setAgain(k, c.step, i, l) {
			return true
		}
	}
	return false
}

// setAgain reports whether recording k set a field labelled l again
// between skill steps at and i: the browser compared the value the field
// held at the destructive step, the later one (a wizard's page that asks
// for a name again, a field corrected after a row was added).
func (g *builder) setAgain(k, at, i int, l string) bool {
	for j := at + 1; j < i && j < len(g.cols); j++ {
		if g.cols[j] == nil {
			continue
		}
		if s := g.cols[j][k]; s != nil && settable(s) && skills.Loose(labelOf(s)) == l {
			return true
		}
	}
	return false
}

// echoable reports whether a candidate's value is one a page can be
// expected to show back: a row's typed or chosen value, not a constant,
// a secret, a file, a value redacted at capture or a part of a URL.
func echoable(c *candidate, st *skills.Step) bool {
	switch {
	case c.constant, c.unknown, st.Secret, c.prefix != "" || c.suffix != "":
		return false
	case c.typ == events.ValueFile || c.typ == events.ValueSecret:
		return false
	}
	return st.Action == events.ActionFill || st.Action == events.ActionSelect
}

// echoNames are the parameter names of an echo's placeholders.
func echoNames(echo []string) []string {
	var out []string
	for _, e := range echo {
		names, _ := skills.Placeholders(e)
		out = append(out, names...)
	}
	return out
}
