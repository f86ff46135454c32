package skills

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// Summary says in plain words what a skill does with a row: where each
// parameter comes from and what it accepts, what is ignored, and what
// shows each destructive step worked. It quotes the form's words (labels,
// options, success texts) and the person's mappings, never a row's value.
func Summary(s *Skill) []string {
	var out []string
	for _, p := range s.Parameters {
		line := fmt.Sprintf("%s: column %q, %s", p.Name, p.Column, p.Type)
		if opts := s.OptionsOf(p.Name); len(opts) > 0 {
			line += ", one of " + quoteList(labels(opts))
		}
		if len(p.Options) > 0 {
			var pairs []string
			for _, from := range slices.Sorted(maps.Keys(p.Options)) {
				pairs = append(pairs, fmt.Sprintf("%q means %q", from, p.Options[from]))
			}
			line += " (" + strings.Join(pairs, ", ") + ")"
		}
		if p.Optional {
			line += "; optional: an empty cell leaves it empty"
		}
		out = append(out, line)
	}
	for _, ig := range s.Ignore {
		if ig.Column != "" {
			out = append(out, fmt.Sprintf("column %q: ignored", ig.Column))
		} else {
			out = append(out, fmt.Sprintf("field %q: left as the page has it", ig.Field))
		}
	}
	for i, st := range s.Steps {
		if st.Destructive {
			success := "nothing is checked: the row cannot be confirmed"
			if len(st.Assert) > 0 {
				success = Describe(st.Assert)
			}
			out = append(out, fmt.Sprintf("step %d (%s) files the row; success: %s", i+1, DescribeStep(&st), success))
		}
	}
	return out
}

// Describe says in words what the conditions check, for a person: "the
// text \"Customer created\" appears; the URL stays the same (within 12s)".
func Describe(cs Conditions) string {
	var parts []string
	for _, c := range cs {
		switch c.Kind {
		case CondURLChanged:
			parts = append(parts, "the URL changes")
		case CondURLUnchanged:
			parts = append(parts, "the URL stays the same")
		case CondURLContains:
			parts = append(parts, fmt.Sprintf("the URL contains %q", c.Value))
		case CondText:
			if names, _ := Placeholders(c.Value); len(names) == 1 && c.Value == Placeholder(names[0]) {
				parts = append(parts, fmt.Sprintf("the page shows the row's %s", names[0]))
			} else {
				parts = append(parts, fmt.Sprintf("the text %q appears", c.Value))
			}
		case CondElement:
			parts = append(parts, fmt.Sprintf("the element %q is on the page", c.Value))
		case CondFormReset:
			parts = append(parts, "the form is reset")
		case CondRequestOK:
			parts = append(parts, "the site answers the request with success")
		default:
			parts = append(parts, c.Kind)
		}
	}
	out := strings.Join(parts, "; ")
	if len(cs) > 0 && cs[0].Timeout != "" {
		out += " (within " + cs[0].Timeout + ")"
	}
	return out
}

// ButtonText is what a button says: its label, else its role+text name.
func ButtonText(st *Step) string {
	if st.Label != "" {
		return st.Label
	}
	for _, s := range st.Selectors {
		if s.Strategy == events.StrategyRoleText {
			// role+text reads like button[name='Save']: the name is the text.
			if _, rest, ok := strings.Cut(s.Value, "name='"); ok {
				text, _, _ := strings.Cut(rest, "'")
				return text
			}
			return s.Value
		}
	}
	return ""
}

func DescribeStep(st *Step) string {
	if t := ButtonText(st); t != "" {
		return fmt.Sprintf("%s %q", st.Action, t)
	}
	return st.Action
}

func labels(opts []Option) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Label
		if o.Label == "" {
			out[i] = o.Value
		}
	}
	return out
}
