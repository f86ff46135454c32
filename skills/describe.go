package skills

import (
	"fmt"
	"maps"
	"slices"
	"strings"
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
			out = append(out, fmt.Sprintf("step %d (%s) files the row; success: %s", i+1, describeSkillStep(&st), success))
		}
	}
	return out
}
