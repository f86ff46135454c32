package skills

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/selector"
)

// ActionExpect is a skill step that only checks: its Expect must hold
// within its time, or the row fails there.
const ActionExpect = "expect"

// Check is an exact condition on what the page or window shows, the same
// on every run: no screenshot, no model. One of Text, Element and Window.
type Check struct {
	// Text holds when a visible element's name or value contains it.
	Text string `yaml:"text,omitempty"`
	// Element holds when the selector matches exactly one visible element.
	Element *selector.Selector `yaml:"element,flow,omitempty"`
	// Window holds when the title contains it ("*" for any run).
	Window string `yaml:"window,omitempty"`
	// Within is how long to look: for an expect, default the step's
	// timeout; for a when, 2s.
	Within string `yaml:"within,omitempty"`
}

// WhenWithin is how long a when looks before the step is skipped.
const WhenWithin = 2 * time.Second

// CheckEvery is how often a check looks again until it holds.
const CheckEvery = 250 * time.Millisecond

// Wait is how long c looks: Within, or def when it says nothing.
func (c Check) Wait(def time.Duration) time.Duration {
	if d, err := time.ParseDuration(c.Within); err == nil && d > 0 {
		return d
	}
	return def
}

// Holds reports whether c holds on what an executor read: the window's (or
// page's) title and its visible elements. When it does not, seen says what
// was there ("3 elements match", "the title was ..."), quoting neither the
// text looked for nor a field's value.
func (c Check) Holds(title string, t selector.Tree) (ok bool, seen string) {
	switch {
	case c.Text != "":
		want := selector.Normalize(c.Text)
		for _, e := range t {
			if strings.Contains(selector.Normalize(e.Name), want) || strings.Contains(selector.Normalize(e.Value), want) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("no visible element shows the text (%d elements read)", len(t))
	case c.Element != nil:
		_, err := selector.Match(*c.Element, t)
		var m *selector.Miss
		switch {
		case err == nil:
			return true, ""
		case errors.As(err, &m) && m.Code == selector.CodeAmbiguous:
			return false, fmt.Sprintf("%d elements match", len(m.Matches))
		case errors.As(err, &m):
			return false, "no element matches"
		}
		return false, err.Error()
	case c.Window != "":
		if selector.Contains(title, c.Window) {
			return true, ""
		}
		return false, fmt.Sprintf("the title was %q", title)
	}
	return false, "the check names nothing to look for"
}

// Fill returns c with the row's values in its text, window and element.
func (c Check) Fill(row map[string]string) (Check, error) {
	var err error
	if c.Text, err = Expand(c.Text, row); err != nil {
		return c, err
	}
	if c.Window, err = Expand(c.Window, row); err != nil {
		return c, err
	}
	if c.Element != nil {
		el, err := c.Element.Fill(row)
		if err != nil {
			return c, err
		}
		c.Element = &el
	}
	return c, nil
}

func (c *Check) validate(at string, declared, used map[string]bool) error {
	if c == nil {
		return nil
	}
	n := 0
	for _, set := range []bool{c.Text != "", c.Element != nil, c.Window != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fieldErr(at, "give exactly one of text, element or window")
	}
	if c.Within != "" {
		if d, err := time.ParseDuration(c.Within); err != nil || d <= 0 {
			return fieldErr(at+".within", "must be a positive duration such as 5s")
		}
	}
	if c.Element != nil {
		if err := validateTarget(at+".element", c.Element, declared, used); err != nil {
			return err
		}
	}
	if err := placeholders(at+".text", c.Text, declared, used); err != nil {
		return err
	}
	return placeholders(at+".window", c.Window, declared, used)
}

// String names the check for a message: what it looks for, not whether it
// held.
func (c Check) String() string {
	switch {
	case c.Text != "":
		return fmt.Sprintf("text %q", c.Text)
	case c.Element != nil:
		return "element " + c.Element.String()
	case c.Window != "":
		return fmt.Sprintf("window %q", c.Window)
	}
	return "nothing"
}
