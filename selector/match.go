package selector

import (
	"fmt"
	"image"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Element is one element of a window or page, as an executor read it.
type Element struct {
	// Role is the selector role (RoleOf of the tree's own).
	Role string
	Name string
	// ID is the application's id for the element, if it gives one.
	ID    string
	Value string
	// Label is the index of the element the application links to this one
	// as its label (for/aria-labelledby, an AX title element), or -1.
	Label int
	// Bounds are in screen (or page) pixels; empty for an element not
	// laid out.
	Bounds image.Rectangle
	// Parent is the index of the element's parent, or -1 for a root.
	Parent int
	// Window is the title of the element's window, App its process image
	// name.
	Window, App string
	// Path is where the executor found it (an accessibility path, an
	// XPath), for a person reading a listing; matching ignores it.
	Path string
}

// Tree is a window's or page's elements in tree order: a parent before its
// children.
type Tree []Element

// Miss is a selector that matches no element, or more than one: never a
// guess. Matches are the elements left when the rule gave up, so a person
// can see what to narrow.
type Miss struct {
	Code    string
	Matches []int
	Reason  string
}

func (m *Miss) Error() string { return m.Reason }

func miss(code string, matches []int, format string, args ...any) *Miss {
	return &Miss{Code: code, Matches: matches, Reason: fmt.Sprintf(format, args...)}
}

// Match returns the one element of t that s names, or a *Miss saying why
// none is. The rule runs in a fixed order: app and window narrow the tree;
// in narrows it to the descendants of its container, which must match
// exactly one element; an id wins when it is unique there, and an id that
// matches nothing is a miss whatever the name; else role and name select
// the candidates; near keeps those the application links to the label, or
// else the nearest on the label's side; nth picks one in reading order.
func Match(s Selector, t Tree) (int, error) {
	found, err := candidates(s, t)
	if err != nil {
		return -1, err
	}
	switch len(found) {
	case 0:
		return -1, miss(CodeNotFound, nil, "no %s matches %s", s.Role, s)
	case 1:
		return found[0], nil
	}
	return -1, miss(CodeAmbiguous, found, "%d elements match %s; narrow it with in, near or nth", len(found), s)
}

// candidates are the elements left after every rule but the final count.
func candidates(s Selector, t Tree) ([]int, error) {
	scope := make([]int, 0, len(t))
	for i, e := range t {
		if s.App != "" && !strings.EqualFold(strings.TrimSuffix(e.App, filepath.Ext(e.App)), s.App) {
			continue
		}
		if s.Window != "" && !Contains(e.Window, s.Window) {
			continue
		}
		scope = append(scope, i)
	}
	if s.In != nil {
		box, err := Match(*s.In, t)
		if err != nil {
			return nil, fmt.Errorf("container %s: %w", s.In, err)
		}
		scope = slices.DeleteFunc(scope, func(i int) bool { return !t.under(i, box) })
	}
	if s.ID != "" {
		ids := slices.DeleteFunc(slices.Clone(scope), func(i int) bool { return t[i].ID != s.ID })
		switch len(ids) {
		case 0:
			return nil, miss(CodeNotFound, nil, "no element has id %q", s.ID)
		case 1:
			return ids, nil
		}
		scope = ids
	}
	// A name is often a label's text ("Name:" names its field on the
	// web), so it compares as a label: without a trailing colon.
	name := NormalizeLabel(s.Name)
	found := slices.DeleteFunc(scope, func(i int) bool {
		return t[i].Role != s.Role || s.Name != "" && !glob(name, NormalizeLabel(t[i].Name), true)
	})
	if s.Near != nil {
		found = t.near(found, *s.Near)
	}
	if s.Nth != nil {
		found = t.ReadingOrder(found)
		if *s.Nth >= len(found) {
			return nil, miss(CodeNotFound, found, "nth %d of %s, but %d match", *s.Nth, s, len(found))
		}
		return found[*s.Nth : *s.Nth+1], nil
	}
	return found, nil
}

// under reports whether i is a descendant of box. A parent comes before
// its child in a Tree; a malformed one that says otherwise ends the walk.
func (t Tree) under(i, box int) bool {
	for child, p := i, t[i].Parent; p >= 0 && p < child; child, p = p, t[p].Parent {
		if p == box {
			return true
		}
	}
	return false
}

// near keeps the candidates the application links to a label named n.Label;
// when it links none, for each text element so named, the nearest
// candidate on n.Side of it that overlaps it in the other direction.
func (t Tree) near(found []int, n Near) []int {
	want := NormalizeLabel(n.Label)
	var labels []int
	for i, e := range t {
		if NormalizeLabel(e.Name) == want {
			labels = append(labels, i)
		}
	}
	linked := slices.DeleteFunc(slices.Clone(found), func(i int) bool {
		l := t[i].Label
		return l < 0 || l >= len(t) || !slices.Contains(labels, l)
	})
	if len(linked) > 0 {
		return linked
	}
	var out []int
	for _, l := range labels {
		if t[l].Role != "text" {
			continue
		}
		best, bestDist := -1, 0
		for _, c := range found {
			if d, ok := beside(t[l].Bounds, t[c].Bounds, n.Side); ok && (best < 0 || d < bestDist) {
				best, bestDist = c, d
			}
		}
		if best >= 0 && !slices.Contains(out, best) {
			out = append(out, best)
		}
	}
	return out
}

// beside reports whether c lies on side of label, overlapping it in the
// other direction, and how far from it.
func beside(label, c image.Rectangle, side string) (int, bool) {
	if label.Empty() || c.Empty() {
		return 0, false
	}
	overlapX := c.Min.X < label.Max.X && label.Min.X < c.Max.X
	overlapY := c.Min.Y < label.Max.Y && label.Min.Y < c.Max.Y
	switch side {
	case "right":
		return c.Min.X - label.Max.X, overlapY && c.Min.X >= label.Max.X-1
	case "left":
		return label.Min.X - c.Max.X, overlapY && c.Max.X <= label.Min.X+1
	case "below":
		return c.Min.Y - label.Max.Y, overlapX && c.Min.Y >= label.Max.Y-1
	case "above":
		return label.Min.Y - c.Max.Y, overlapX && c.Max.Y <= label.Min.Y+1
	}
	return 0, false
}

// ReadingOrder sorts elements into rows, top to bottom, and left to right
// within a row: an element starts a new row when its top is below the
// middle of the row's first element. It is the order nth counts in.
func (t Tree) ReadingOrder(els []int) []int {
	out := slices.Clone(els)
	sort.SliceStable(out, func(a, b int) bool {
		ra, rb := t[out[a]].Bounds, t[out[b]].Bounds
		if ra.Min.Y != rb.Min.Y {
			return ra.Min.Y < rb.Min.Y
		}
		return ra.Min.X < rb.Min.X
	})
	row := make([]int, len(out))
	first := 0
	for i := range out {
		r, head := t[out[i]].Bounds, t[out[first]].Bounds
		if r.Min.Y > head.Min.Y+head.Dy()/2 {
			first = i
		}
		row[i] = first
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		if row[idx[a]] != row[idx[b]] {
			return row[idx[a]] < row[idx[b]]
		}
		return t[out[idx[a]]].Bounds.Min.X < t[out[idx[b]]].Bounds.Min.X
	})
	sorted := make([]int, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}
