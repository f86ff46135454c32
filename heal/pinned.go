package heal

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/selector"
)

// Pinned is a cache entry in the form a person writes into a skill: the
// steps it took, each by selector, and what of it has no such form.
type Pinned struct {
	Step       int        `json:"step"` // from 1
	SavedAt    time.Time  `json:"saved_at"`
	Assumes    []string   `json:"assumes"`
	Recorded   []PinStep  `json:"recorded"`
	Unpinnable []Unpinned `json:"unpinnable"`
	Entry      *Entry     `json:"-"`
}

// PinStep is one pinned action: a click before the step, or the step.
type PinStep struct {
	Click *selector.Selector `json:"click,omitempty"`
	Step  *selector.Selector `json:"step,omitempty"`
}

// Unpinned is an action with no pinned form: why, and a code for a
// program (no_element: no selector names its element).
type Unpinned struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
	Code   string `json:"code"`
}

// Pin returns the cache's entries in pinned form, by step.
func Pin(c *Cache) []Pinned {
	var out []Pinned
	for _, e := range c.Entries() {
		p := Pinned{Step: e.Step + 1, SavedAt: e.Saved, Assumes: []string{}, Recorded: []PinStep{}, Unpinnable: []Unpinned{}}
		for name := range e.Assumes {
			p.Assumes = append(p.Assumes, name)
		}
		for _, b := range e.Before {
			p.Recorded = append(p.Recorded, pinOrNot(&p, "click", b, func(s *selector.Selector) PinStep { return PinStep{Click: s} }))
		}
		p.Recorded = append(p.Recorded, pinOrNot(&p, "step", e.Target, func(s *selector.Selector) PinStep { return PinStep{Step: s} }))
		out = append(out, p)
	}
	return out
}

func pinOrNot(p *Pinned, action string, s selector.Selector, mk func(*selector.Selector) PinStep) PinStep {
	if s.Validate() != nil {
		p.Unpinnable = append(p.Unpinnable, Unpinned{Action: action, Reason: "no selector names its element", Code: "no_element"})
		return PinStep{}
	}
	return mk(&s)
}

// WritePinned prints pinned entries as YAML-like text a person reads and
// copies into a skill.
func WritePinned(w io.Writer, skill string, ps []Pinned) {
	if len(ps) == 0 {
		fmt.Fprintf(w, "# skill %s has no replay cache on this host\n", skill)
		return
	}
	for _, p := range ps {
		fmt.Fprintf(w, "# step %d, saved %s\n", p.Step, p.SavedAt.Format(time.RFC3339))
		if len(p.Assumes) > 0 {
			fmt.Fprintf(w, "# fits only rows whose %s hold the values the model saw (the actions use none of them)\n", strings.Join(p.Assumes, ", "))
		}
		for _, u := range p.Unpinnable {
			fmt.Fprintf(w, "# cannot be pinned: %s: %s (%s)\n", u.Action, u.Reason, u.Code)
		}
		fmt.Fprintf(w, "step_%d:\n", p.Step)
		for _, r := range p.Recorded {
			switch {
			case r.Click != nil:
				fmt.Fprintf(w, "  - click: %s\n", flow(*r.Click))
			case r.Step != nil:
				fmt.Fprintf(w, "  - target: %s\n", flow(*r.Step))
			}
		}
	}
}

// flow writes a selector as a YAML flow mapping.
func flow(s selector.Selector) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf("%s: %q", k, v))
		}
	}
	add("role", s.Role)
	add("name", s.Name)
	add("id", s.ID)
	if s.In != nil {
		parts = append(parts, "in: "+flow(*s.In))
	}
	if s.Nth != nil {
		parts = append(parts, fmt.Sprintf("nth: %d", *s.Nth))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
