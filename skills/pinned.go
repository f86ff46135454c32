package skills

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/selector"
)

// Pins are a step's pinned steps, one list per system: written into the
// skill (from `reprise cache show`), they run ahead of the step's own
// recording and of the host's replay cache on a host of that system, with
// no model. A system with no list runs the step as recorded.
type Pins struct {
	Windows []Pin `yaml:"windows,omitempty"`
	Macos   []Pin `yaml:"macos,omitempty"`
	Linux   []Pin `yaml:"linux,omitempty"`
}

// Pin is one pinned action, exactly one of: click an element; type text
// (its placeholders filled from the row) into one; press a key chord,
// after focusing an element if Focus is set; scroll one by DY; wait.
type Pin struct {
	Click  *selector.Selector `yaml:"click,flow,omitempty"`
	Type   *PinType           `yaml:"type,flow,omitempty"`
	Key    string             `yaml:"key,omitempty"`
	Focus  *selector.Selector `yaml:"focus,flow,omitempty"`
	Scroll *PinScroll         `yaml:"scroll,flow,omitempty"`
	Wait   string             `yaml:"wait,omitempty"`
}

// PinType types Text into the element Into names.
type PinType struct {
	Into selector.Selector `yaml:"into,flow"`
	Text string            `yaml:"text"`
}

// PinScroll scrolls the element On names by DY notches.
type PinScroll struct {
	On selector.Selector `yaml:"on,flow"`
	DY int               `yaml:"dy"`
}

// For returns the pins of system (a GOOS: windows, darwin, linux), nil
// when it has none.
func (p *Pins) For(system string) []Pin {
	if p == nil {
		return nil
	}
	switch system {
	case "windows":
		return p.Windows
	case "darwin":
		return p.Macos
	case "linux":
		return p.Linux
	}
	return nil
}

// Here returns the pins of this host's system.
func (p *Pins) Here() []Pin { return p.For(runtime.GOOS) }

// PinnedHere says whether a step of the skill has pins for this host.
func (s *Skill) PinnedHere() bool {
	for _, st := range s.Steps {
		if len(st.Recorded.Here()) > 0 {
			return true
		}
	}
	return false
}

// Kind names what the pin does: click, type, key, scroll or wait.
func (p Pin) Kind() string {
	switch {
	case p.Click != nil:
		return "click"
	case p.Type != nil:
		return "type"
	case p.Key != "":
		return "key"
	case p.Scroll != nil:
		return "scroll"
	}
	return "wait"
}

func (p *Pins) validate(at string, declared, used map[string]bool) error {
	if p == nil {
		return nil
	}
	for _, sys := range []struct {
		name string
		pins []Pin
	}{{"windows", p.Windows}, {"macos", p.Macos}, {"linux", p.Linux}} {
		for i, pin := range sys.pins {
			if err := pin.validate(fmt.Sprintf("%s.recorded.%s[%d]", at, sys.name, i), declared, used); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p Pin) validate(at string, declared, used map[string]bool) error {
	n := 0
	for _, set := range []bool{p.Click != nil, p.Type != nil, p.Key != "", p.Scroll != nil, p.Wait != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fieldErr(at, "a pinned step is exactly one of click, type, key, scroll or wait")
	}
	if p.Focus != nil && p.Key == "" {
		return fieldErr(at+".focus", "only a key takes focus")
	}
	check := func(field string, s *selector.Selector) error {
		if s == nil {
			return nil
		}
		return validateTarget(at+"."+field, s, declared, used)
	}
	switch {
	case p.Click != nil:
		return check("click", p.Click)
	case p.Type != nil:
		if err := check("type.into", &p.Type.Into); err != nil {
			return err
		}
		return placeholders(at+".type.text", p.Type.Text, declared, used)
	case p.Key != "":
		if strings.TrimSpace(p.Key) == "" || strings.ContainsAny(p.Key, " \t\n") {
			return fieldErr(at+".key", "a key chord such as ctrl+s, with no spaces")
		}
		return check("focus", p.Focus)
	case p.Scroll != nil:
		if p.Scroll.DY == 0 {
			return fieldErr(at+".scroll.dy", "scrolls by a number of notches, not 0")
		}
		return check("scroll.on", &p.Scroll.On)
	}
	if d, err := time.ParseDuration(p.Wait); err != nil || d <= 0 || d > time.Minute {
		return fieldErr(at+".wait", "a duration from 1ms to 1m, such as 500ms")
	}
	return nil
}
