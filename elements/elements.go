// Package elements is `reprise elements`: what a selector can name in the
// front window or a browser's page, listed for a person writing or
// repairing a skill, and a selector tried against it. It reads; it takes no
// lease and sends no input.
package elements

import (
	"context"
	"errors"
	"image"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/selector"
)

// Fail returns an *ops.Error with code, one of the registry's
// (ops/errors.json): INVALID_REQUEST, UNSUPPORTED, NO_ELEMENTS,
// SELECTOR_NOT_FOUND, SELECTOR_AMBIGUOUS, INTERNAL.
func Fail(code, format string, args ...any) *ops.Error {
	return ops.Errorf(code, format, args...)
}

// CodeOf is err's code: its own when it is an *ops.Error, else INTERNAL.
func CodeOf(err error) string {
	var e *ops.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ops.CodeInternal
}

// Source is where elements are read: a window through the OS's
// accessibility tree, or a browser's page.
type Source interface {
	// Name is "desktop" or "browser".
	Name() string
	// Read lists at most limit visible elements in tree order, with the
	// window's (or page's) title; more says some were left out.
	Read(ctx context.Context, limit int) (title string, t selector.Tree, more bool, err error)
}

// Element is one element as a listing prints it. A password field's value
// is never read.
type Element struct {
	Index  int    `json:"index"`
	Parent int    `json:"parent"`
	Role   string `json:"role"`
	Name   string `json:"name,omitempty"`
	ID     string `json:"id,omitempty"`
	Value  string `json:"value,omitempty"`
	// Bounds are x, y, width and height, in screen (desktop) or page
	// (browser) pixels.
	Bounds [4]int `json:"bounds"`
	Path   string `json:"path,omitempty"`
}

// Listing is what one read shows.
type Listing struct {
	Source    string    `json:"source"`
	Window    string    `json:"window"`
	Elements  []Element `json:"elements"`
	Truncated bool      `json:"truncated,omitempty"`
	// Match is the selector tried, when one was: Elements are then its
	// matches.
	Match *Match `json:"match,omitempty"`
	// Error is why the command failed, when it did.
	Error *ops.Error `json:"error,omitempty"`
}

// Match is a selector tried against the listing.
type Match struct {
	Selector string `json:"selector"`
	// Code is empty when exactly one element matched.
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	Count   int    `json:"count"`
}

func element(t selector.Tree, i int) Element {
	e := t[i]
	return Element{
		Index: i, Parent: e.Parent, Role: e.Role, Name: e.Name, ID: e.ID, Value: e.Value, Path: e.Path,
		Bounds: [4]int{e.Bounds.Min.X, e.Bounds.Min.Y, e.Bounds.Dx(), e.Bounds.Dy()},
	}
}

// List reads src and lists its elements, at most limit.
func List(ctx context.Context, src Source, limit int) (Listing, error) {
	title, t, more, err := src.Read(ctx, limit)
	if err != nil {
		return Listing{}, err
	}
	if len(t) == 0 {
		return Listing{}, Fail(ops.CodeNoElements, "the %s shows no element a selector can name", what(src))
	}
	l := Listing{Source: src.Name(), Window: title, Truncated: more, Elements: make([]Element, len(t))}
	for i := range t {
		l.Elements[i] = element(t, i)
	}
	return l, nil
}

// Try reads every element of src (up to max) and matches s there. The
// listing holds the matches either way, so a person can narrow; the error
// is a SELECTOR_NOT_FOUND or SELECTOR_AMBIGUOUS *ops.Error when not exactly one matched.
func Try(ctx context.Context, src Source, s selector.Selector, max int) (Listing, error) {
	title, t, more, err := src.Read(ctx, max)
	if err != nil {
		return Listing{}, err
	}
	if len(t) == 0 {
		return Listing{}, Fail(ops.CodeNoElements, "the %s shows no element a selector can name", what(src))
	}
	l := Listing{Source: src.Name(), Window: title, Truncated: more, Elements: []Element{}, Match: &Match{Selector: s.String()}}
	i, err := selector.Match(s, t)
	var m *selector.Miss
	switch {
	case err == nil:
		l.Elements = append(l.Elements, element(t, i))
		l.Match.Count = 1
		return l, nil
	case errors.As(err, &m):
		for _, j := range m.Matches {
			l.Elements = append(l.Elements, element(t, j))
		}
		l.Match.Code, l.Match.Message, l.Match.Count = m.Code, err.Error(), len(m.Matches)
		return l, Fail(m.Code, "%v", err)
	}
	return l, Fail(ops.CodeSelectorNotFound, "%v", err)
}

// At lists the element at p (the deepest whose bounds hold it) and its
// ancestors, outermost first.
func At(ctx context.Context, src Source, p image.Point, max int) (Listing, error) {
	l, err := List(ctx, src, max)
	if err != nil {
		return Listing{}, err
	}
	deepest := -1
	for i, e := range l.Elements {
		r := image.Rect(e.Bounds[0], e.Bounds[1], e.Bounds[0]+e.Bounds[2], e.Bounds[1]+e.Bounds[3])
		if p.In(r) && (deepest < 0 || depth(l.Elements, i) >= depth(l.Elements, deepest)) {
			deepest = i
		}
	}
	if deepest < 0 {
		return Listing{}, Fail(ops.CodeNoElements, "no element of the %s is under the pointer at %d,%d", what(src), p.X, p.Y)
	}
	var chain []Element
	for i := deepest; i >= 0 && i < len(l.Elements); i = l.Elements[i].Parent {
		chain = append([]Element{l.Elements[i]}, chain...)
		if l.Elements[i].Parent >= i {
			break // a malformed tree: a parent comes first
		}
	}
	l.Elements = chain
	return l, nil
}

func depth(els []Element, i int) int {
	d := 0
	for p := els[i].Parent; p >= 0 && p < i && d < len(els); p = els[p].Parent {
		d++
		i = p
	}
	return d
}

func what(src Source) string {
	if src.Name() == "browser" {
		return "page"
	}
	return "window"
}
