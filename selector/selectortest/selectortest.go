// Package selectortest is the conformance suite every executor's selector
// resolution passes: the same cases, with the same expected answers, against
// the same form rendered by each toolkit (a page in Chromium, a GTK window
// under Xvfb, a Win32 dialog under Wine).
//
// The form, titled "Selector conformance", holds, top to bottom:
//
//   - two groups side by side, "Billing" (left) and "Shipping" (right), each
//     with a label "Name:" linked to the text field right of it, a label
//     "City" linked to nothing with a text field right of it, and a button
//     "Save". The fields hold b-name, b-city, s-name and s-city, which is how
//     the suite tells them apart whatever names a toolkit gives them;
//   - a row of three buttons "Add";
//   - a check box "Gift wrap" and a button "Cancel" whose id is 1003.
//
// testdata/form.html is the page; each desktop executor's test builds the
// same form in its toolkit.
package selectortest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/reprise-dev/reprise/selector"
)

// Title is the form's window title (and page title).
const Title = "Selector conformance"

// Resolver is an executor's selector resolution: it reads the elements of
// the form and returns them with the index of the one s names.
type Resolver interface {
	Resolve(ctx context.Context, s selector.Selector) (selector.Tree, int, error)
}

// Probe names the element a case expects, in terms every toolkit renders
// alike: its role, the group it is in, and its value or name; Index picks
// among several such in reading order.
type Probe struct {
	Role, Group, Name, Value string
	Index                    int
}

// Case is one selector and what resolving it must give: the element Want
// names, or a miss with Code and, for an ambiguous one, Count matches.
type Case struct {
	Name     string
	Selector string // JSON, as a person types it
	Want     *Probe
	Code     string
	Count    int
	// NeedsIDs marks a case only a toolkit exposing application ids can
	// answer (MSAA has none).
	NeedsIDs bool
}

// Cases are the rules of the selector model, each checked on the form.
var Cases = []Case{
	{Name: "role and name", Selector: `{"role":"checkbox","name":"Gift wrap"}`, Want: &Probe{Role: "checkbox", Name: "Gift wrap"}},
	{Name: "a repeated name is a miss, never a guess", Selector: `{"role":"button","name":"Save"}`, Code: selector.CodeAmbiguous, Count: 2},
	{Name: "in narrows to the container", Selector: `{"role":"button","name":"Save","in":{"role":"group","name":"Shipping"}}`, Want: &Probe{Role: "button", Name: "Save", Group: "Shipping"}},
	{Name: "the container must match exactly one", Selector: `{"role":"button","name":"Save","in":{"role":"group","name":"*"}}`, Code: selector.CodeAmbiguous, Count: 2},
	{Name: "near a linked label", Selector: `{"role":"text_field","near":{"label":"Name","side":"right"},"in":{"role":"group","name":"Billing"}}`, Want: &Probe{Role: "text_field", Group: "Billing", Value: "b-name"}},
	{Name: "near a label by position", Selector: `{"role":"text_field","near":{"label":"City","side":"right"},"in":{"role":"group","name":"Shipping"}}`, Want: &Probe{Role: "text_field", Group: "Shipping", Value: "s-city"}},
	{Name: "near on a side with nothing there", Selector: `{"role":"text_field","near":{"label":"City","side":"left"},"in":{"role":"group","name":"Shipping"}}`, Code: selector.CodeNotFound},
	{Name: "nth 0 is the first in reading order", Selector: `{"role":"button","name":"Add","nth":0}`, Want: &Probe{Role: "button", Name: "Add", Index: 0}},
	{Name: "nth 2 is the third, left to right", Selector: `{"role":"button","name":"Add","nth":2}`, Want: &Probe{Role: "button", Name: "Add", Index: 2}},
	{Name: "nth past the end", Selector: `{"role":"button","name":"Add","nth":3}`, Code: selector.CodeNotFound},
	{Name: "several equal without nth", Selector: `{"role":"button","name":"Add"}`, Code: selector.CodeAmbiguous, Count: 3},
	{Name: "full-width is read as half-width", Selector: `{"role":"button","name":"Ｃａｎｃｅｌ"}`, Want: &Probe{Role: "button", Name: "Cancel"}},
	{Name: "whitespace collapses", Selector: `{"role":"checkbox","name":"Gift    wrap"}`, Want: &Probe{Role: "checkbox", Name: "Gift wrap"}},
	{Name: "a glob in the name", Selector: `{"role":"checkbox","name":"Gift*"}`, Want: &Probe{Role: "checkbox", Name: "Gift wrap"}},
	{Name: "a name is whole, not a part", Selector: `{"role":"checkbox","name":"Gift"}`, Code: selector.CodeNotFound},
	{Name: "the role must agree", Selector: `{"role":"link","name":"Cancel"}`, Code: selector.CodeNotFound},
	{Name: "an id wins over the name", Selector: `{"role":"button","id":"1003","name":"Whatever"}`, Want: &Probe{Role: "button", Name: "Cancel"}, NeedsIDs: true},
	{Name: "an id that matches nothing is a miss whatever the name", Selector: `{"role":"button","id":"9999","name":"Cancel"}`, Code: selector.CodeNotFound},
	{Name: "the window title contains", Selector: `{"role":"button","name":"Cancel","window":"conformance"}`, Want: &Probe{Role: "button", Name: "Cancel"}},
	{Name: "another window", Selector: `{"role":"button","name":"Cancel","window":"Nope*"}`, Code: selector.CodeNotFound},
}

// Malformed are selectors Parse refuses, whatever the executor.
var Malformed = []string{
	`{"role":"button","name":"Save","colour":"red"}`,
	`{"role":"button"}`,
	`{"role":"knob","name":"Save"}`,
	`{"role":"text_field","near":{"label":"City","side":"north"}}`,
	`{"role":"button","name":"Add","nth":-1}`,
}

// Run checks every case against r. ids says whether the toolkit exposes
// application ids; the cases needing them are skipped, loudly, when not.
func Run(t *testing.T, r Resolver, ids bool) {
	t.Helper()
	for _, c := range Cases {
		t.Run(c.Name, func(t *testing.T) {
			if c.NeedsIDs && !ids {
				t.Skip("this toolkit exposes no application ids")
			}
			s, err := selector.Parse([]byte(c.Selector))
			if err != nil {
				t.Fatalf("parse %s: %v", c.Selector, err)
			}
			tree, got, err := r.Resolve(context.Background(), *s)
			if err := Check(c, tree, got, err); err != nil {
				t.Error(err)
			}
		})
	}
	t.Run("malformed", func(t *testing.T) {
		for _, m := range Malformed {
			if _, err := selector.Parse([]byte(m)); err == nil {
				t.Errorf("%s was accepted", m)
			}
		}
	})
}

// Check says whether resolving c gave got (or err) as c expects.
func Check(c Case, tree selector.Tree, got int, err error) error {
	var m *selector.Miss
	if c.Want == nil {
		switch {
		case err == nil:
			return fmt.Errorf("%s matched %s; want a %s miss", c.Selector, Describe(tree, got), c.Code)
		case !errors.As(err, &m):
			return fmt.Errorf("%s: %v; want a %s miss", c.Selector, err, c.Code)
		case m.Code != c.Code:
			return fmt.Errorf("%s: %s (%v); want %s", c.Selector, m.Code, err, c.Code)
		case c.Count > 0 && len(m.Matches) != c.Count:
			return fmt.Errorf("%s: %d matches; want %d", c.Selector, len(m.Matches), c.Count)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v; want %+v", c.Selector, err, *c.Want)
	}
	want, err := Find(tree, *c.Want)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%s matched %s; want %s", c.Selector, Describe(tree, got), Describe(tree, want))
	}
	return nil
}

// Find is the element p names in tree.
func Find(tree selector.Tree, p Probe) (int, error) {
	var found []int
	for i, e := range tree {
		if e.Role == p.Role && Group(tree, i) == p.Group &&
			(p.Name == "" || selector.Normalize(e.Name) == p.Name) &&
			(p.Value == "" || e.Value == p.Value) {
			found = append(found, i)
		}
	}
	found = tree.ReadingOrder(found)
	if p.Index >= len(found) {
		return -1, fmt.Errorf("the form as read has %d elements like %+v: not the form the suite describes", len(found), p)
	}
	return found[p.Index], nil
}

// Group is the name of the nearest group i is in, "" for none.
func Group(tree selector.Tree, i int) string {
	for p := tree[i].Parent; p >= 0 && p < i; p = tree[p].Parent {
		if tree[p].Role == "group" && tree[p].Name != "" {
			return selector.Normalize(tree[p].Name)
		}
		i = p
	}
	return ""
}

// Describe names element i for a failure.
func Describe(tree selector.Tree, i int) string {
	if i < 0 || i >= len(tree) {
		return fmt.Sprintf("element %d (none)", i)
	}
	e := tree[i]
	return fmt.Sprintf("%s %q value %q in group %q at %v", e.Role, e.Name, e.Value, Group(tree, i), e.Bounds)
}
