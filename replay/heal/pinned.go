package heal

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// Pinned is a cache entry in the form a person writes into the step of a
// skill (its `recorded:` block for this system), and what of it has no
// such form.
type Pinned struct {
	Step       int        `json:"step"` // from 1
	System     string     `json:"system"`
	SavedAt    time.Time  `json:"saved_at"`
	Assumes    []string   `json:"assumes"`
	Recorded   []PinJSON  `json:"recorded"`
	Unpinnable []Unpinned `json:"unpinnable"`
	pins       []skills.Pin
}

// PinJSON is one pinned step as JSON: exactly one of its fields.
type PinJSON struct {
	Click *selector.Selector `json:"click,omitempty"`
	Type  *struct {
		Into selector.Selector `json:"into"`
		Text string            `json:"text"`
	} `json:"type,omitempty"`
}

// Unpinned is an action with no pinned form: why, and a code for a
// program (no_element: no selector names its element; select: a choice,
// which pins cannot make).
type Unpinned struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
	Code   string `json:"code"`
}

// Pin returns the cache's entries in pinned form, by step.
func Pin(c *Cache) []Pinned {
	var out []Pinned
	for _, e := range c.Entries() {
		p := Pinned{Step: e.Step + 1, System: hostSystem(), SavedAt: e.Saved, Assumes: []string{}, Recorded: []PinJSON{}, Unpinnable: []Unpinned{}}
		for name := range e.Assumes {
			p.Assumes = append(p.Assumes, name)
		}
		slices.Sort(p.Assumes)
		for _, b := range e.Before {
			p.add("click", b, func(s *selector.Selector) skills.Pin { return skills.Pin{Click: s} })
		}
		switch e.Action {
		case "fill":
			p.add("type", e.Target, func(s *selector.Selector) skills.Pin {
				return skills.Pin{Type: &skills.PinType{Into: *s, Text: e.Value}}
			})
		case "click", "submit":
			p.add("click", e.Target, func(s *selector.Selector) skills.Pin { return skills.Pin{Click: s} })
		default:
			p.Unpinnable = append(p.Unpinnable, Unpinned{Action: e.Action, Reason: "a pinned step cannot " + e.Action, Code: "select"})
		}
		for _, pin := range p.pins {
			var j PinJSON
			if pin.Click != nil {
				j.Click = pin.Click
			} else {
				j.Type = &struct {
					Into selector.Selector `json:"into"`
					Text string            `json:"text"`
				}{pin.Type.Into, pin.Type.Text}
			}
			p.Recorded = append(p.Recorded, j)
		}
		out = append(out, p)
	}
	return out
}

func (p *Pinned) add(action string, s selector.Selector, mk func(*selector.Selector) skills.Pin) {
	if s.Validate() != nil {
		p.Unpinnable = append(p.Unpinnable, Unpinned{Action: action, Reason: "no selector names its element", Code: "no_element"})
		return
	}
	p.pins = append(p.pins, mk(&s))
}

// system is this host's system as a recorded: block names it.
func hostSystem() string {
	if runtime.GOOS == "darwin" {
		return "macos"
	}
	return runtime.GOOS
}

// WritePinned prints pinned entries as the `recorded:` block each step
// would take, for a person to review and paste into the skill (a
// selector's String is a YAML flow mapping).
func WritePinned(w io.Writer, skill string, ps []Pinned) {
	if len(ps) == 0 {
		fmt.Fprintf(w, "# skill %s has no replay cache on this host\n", skill)
		return
	}
	for _, p := range ps {
		fmt.Fprintf(w, "# step %d, saved %s: under the step in the skill,\n", p.Step, p.SavedAt.Format(time.RFC3339))
		if len(p.Assumes) > 0 {
			fmt.Fprintf(w, "# (the model saw %s, which these steps do not use: check they do what each row needs)\n", strings.Join(p.Assumes, ", "))
		}
		for _, u := range p.Unpinnable {
			fmt.Fprintf(w, "# cannot be pinned: %s: %s (%s)\n", u.Action, u.Reason, u.Code)
		}
		if len(p.Unpinnable) > 0 {
			continue // a pin that skipped an action would report success without doing the task
		}
		fmt.Fprintf(w, "recorded:\n  %s:\n", p.System)
		for _, pin := range p.pins {
			switch {
			case pin.Click != nil:
				fmt.Fprintf(w, "    - click: %s\n", pin.Click.String())
			case pin.Type != nil:
				fmt.Fprintf(w, "    - type: {into: %s, text: %q}\n", pin.Type.Into.String(), pin.Type.Text)
			}
		}
	}
}

// PinnedCache is a skill's replay cache in pinned form, as programs read
// it (`reprise cache show --format json`): its fields in the order they
// are printed.
type PinnedCache struct {
	Operations []Pinned `json:"operations"`
	Skill      string   `json:"skill"`
	Version    int      `json:"version"`
}

// NewPinnedCache is skill's pinned operations ps, never null.
func NewPinnedCache(skill string, ps []Pinned) PinnedCache {
	if ps == nil {
		ps = []Pinned{}
	}
	return PinnedCache{Operations: ps, Skill: skill, Version: CacheVersion}
}
