// Package selector is the one way a skill step names the element it acts
// on, in the browser and on the desktop: a selector a person can read and
// type (role, name, id, near a label, inside a container, the nth in
// reading order), and one matching rule that never guesses: more than one
// element left is a miss.
//
// Matching is pure: the executors read the page's or the window's elements
// into a Tree (role, name, id, linked label, bounds, parent) and Match
// picks from it, so the browser and the desktop give the same answer for
// the same elements.
package selector

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Roles are the roles a selector names; every tree's roles map onto them
// (RoleOf).
var Roles = []string{
	"button", "text_field", "text", "checkbox", "radio", "combo_box", "list_item",
	"menu_item", "tab", "link", "cell", "list", "group", "window", "other",
}

// Sides a near label may be on.
var Sides = []string{"right", "below", "left", "above"}

// Near names the label an element sits beside: the element the application
// links to the label, or the nearest on Side of it.
type Near struct {
	Label string `json:"label" yaml:"label"`
	Side  string `json:"side" yaml:"side"`
}

// Selector names one element. Role and at least one of Name, ID or Near
// are required.
type Selector struct {
	Role string `json:"role" yaml:"role"`
	// Name is the accessible name; "*" matches any run of characters.
	Name string `json:"name,omitempty" yaml:"name,omitempty"`
	// ID is the application's own id (a DOM id, an automation id), compared
	// as written.
	ID string `json:"id,omitempty" yaml:"id,omitempty"`
	// App is the process image name without its extension, any case.
	App string `json:"app,omitempty" yaml:"app,omitempty"`
	// Window is text the window title contains; "*" matches any run.
	Window string    `json:"window,omitempty" yaml:"window,omitempty"`
	In     *Selector `json:"in,omitempty" yaml:"in,omitempty"`
	Near   *Near     `json:"near,omitempty" yaml:"near,omitempty"`
	// Nth picks one of several equal matches in reading order, from 0.
	Nth *int `json:"nth,omitempty" yaml:"nth,omitempty"`
}

// maxDepth bounds nested containers: a selector is typed by a person.
const maxDepth = 8

// Parse reads a selector from JSON or YAML. An unknown key is refused with
// its line; the selector is validated.
func Parse(data []byte) (*Selector, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Selector
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("selector: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var extra any
	if err := dec.Decode(&extra); err == nil {
		return nil, errors.New("selector: more than one document; give one selector")
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate says what is wrong with a selector, if anything.
func (s *Selector) Validate() error { return s.validate(0) }

func (s *Selector) validate(depth int) error {
	if depth >= maxDepth {
		return fmt.Errorf("selector: containers nested deeper than %d", maxDepth)
	}
	if !slices.Contains(Roles, s.Role) {
		return fmt.Errorf("selector: role %q is not one of %s", s.Role, strings.Join(Roles, ", "))
	}
	if s.Name == "" && s.ID == "" && s.Near == nil {
		return errors.New("selector: give at least one of name, id or near besides the role")
	}
	if n := s.Near; n != nil {
		if n.Label == "" {
			return errors.New("selector: near needs a label")
		}
		if !slices.Contains(Sides, n.Side) {
			return fmt.Errorf("selector: near side %q is not one of %s", n.Side, strings.Join(Sides, ", "))
		}
	}
	if s.Nth != nil && *s.Nth < 0 {
		return fmt.Errorf("selector: nth %d is negative; it counts from 0", *s.Nth)
	}
	if s.In != nil {
		if err := s.In.validate(depth + 1); err != nil {
			return fmt.Errorf("in: %w", err)
		}
	}
	return nil
}

// placeholder is a %name% a row's value fills.
var placeholder = regexp.MustCompile(`%([A-Za-z0-9_]+)%`)

// Fill returns the selector with every %name% placeholder in its name,
// window, near label and container replaced from values. An id and an app
// are identifiers and stay as written. Placeholders values lacks are an
// error naming them.
func (s Selector) Fill(values map[string]string) (Selector, error) {
	var missing []string
	out := s.fill(values, &missing)
	if len(missing) > 0 {
		return Selector{}, fmt.Errorf("selector: no value for %s", strings.Join(missing, ", "))
	}
	return out, nil
}

func (s Selector) fill(values map[string]string, missing *[]string) Selector {
	fill := func(text string) string {
		return placeholder.ReplaceAllStringFunc(text, func(m string) string {
			name := m[1 : len(m)-1]
			v, ok := values[name]
			if !ok {
				*missing = append(*missing, name)
				return m
			}
			return v
		})
	}
	out := s
	out.Name, out.Window = fill(s.Name), fill(s.Window)
	if s.Near != nil {
		n := *s.Near
		n.Label = fill(n.Label)
		out.Near = &n
	}
	if s.In != nil {
		in := s.In.fill(values, missing)
		out.In = &in
	}
	return out
}

// String is the selector as one line of JSON-like text, for messages.
func (s Selector) String() string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, fmt.Sprintf("%s: %q", k, v))
		}
	}
	add("role", s.Role)
	add("name", s.Name)
	add("id", s.ID)
	add("app", s.App)
	add("window", s.Window)
	if s.Near != nil {
		parts = append(parts, fmt.Sprintf("near: {label: %q, side: %s}", s.Near.Label, s.Near.Side))
	}
	if s.In != nil {
		parts = append(parts, "in: "+s.In.String())
	}
	if s.Nth != nil {
		parts = append(parts, fmt.Sprintf("nth: %d", *s.Nth))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
