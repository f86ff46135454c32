package atspi

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"

	"github.com/godbus/dbus/v5"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// maxFindScan bounds how many elements Find looks at in one window.
const maxFindScan = 5000

// Element is an accessible object found by Find, addressed as AT-SPI
// addresses it, so that replay can act on it.
type Element struct {
	// Bus is the application's unique name on the accessibility bus and
	// Path the object's path there; both last as long as the object does.
	Bus  string
	Path string
	// Role, Label and AXPath are what At would report for the element.
	Role   string
	Label  string
	AXPath string
	// Bounds is where the element was drawn when found, in screen pixels.
	Bounds image.Rectangle
}

func (el Element) ref() ref { return ref{el.Bus, dbus.ObjectPath(el.Path)} }

// ErrNoWindow is returned by Find when no showing top-level window matches.
var ErrNoWindow = errors.New("atspi: no such window on the accessibility bus")

// Find lists the showing elements in the top-level window titled window (or,
// when window is "", the active window) whose role is role and whose label is
// label, labelled by the same rules as At; an empty role or label matches
// any. They come in tree order (depth first), which toolkits need not lay
// out in reading order (GTK 3 lists a grid's last row first).
func (e *Enricher) Find(ctx context.Context, window, role, label string) ([]Element, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return nil, err
	}
	wins, err := c.windowsNamed(ctx, window)
	if err != nil {
		return nil, err
	}
	if len(wins) == 0 {
		return nil, ErrNoWindow
	}
	var out []Element
	cache := labelCache{}
	for _, w := range wins {
		found, err := c.findIn(ctx, w, role, label, cache)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// windowsNamed returns the showing top-level windows called name, or the
// active ones when name is "".
func (c client) windowsNamed(ctx context.Context, name string) ([]ref, error) {
	apps, err := c.children(ctx, ref{registryBus, rootPath})
	if err != nil {
		return nil, fmt.Errorf("list applications: %w", err)
	}
	var out []ref
	for _, app := range apps {
		wins, err := c.children(ctx, app)
		if err != nil {
			continue // an application that went away is not ours
		}
		for _, w := range wins {
			st, err := c.states(ctx, w)
			if err != nil || !has(st, stateShowing) {
				continue
			}
			if name == "" {
				if has(st, stateActive) {
					out = append(out, w)
				}
				continue
			}
			if n, err := c.name(ctx, w); err == nil && n == name {
				out = append(out, w)
			}
		}
	}
	return out, ctx.Err()
}

// findIn walks win's subtree depth first, keeping each element's ancestors
// for labelOf.
func (c client) findIn(ctx context.Context, win ref, role, label string, cache labelCache) ([]Element, error) {
	type item struct {
		r         ref
		ancestors []ref // nearest first
	}
	var out []Element
	stack := []item{{win, nil}}
	for seen := 0; len(stack) > 0 && seen < maxFindScan; seen++ {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		rn, err := c.roleName(ctx, it.r)
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("find in window: %w", ctx.Err())
			}
			continue // vanished mid-walk
		}
		if role == "" || Role(rn) == role {
			if el, ok, err := c.match(ctx, it.r, rn, label, it.ancestors, win, cache); err != nil {
				return nil, err
			} else if ok {
				out = append(out, el)
			}
		}
		kids, err := c.children(ctx, it.r)
		if err != nil {
			continue
		}
		anc := append([]ref{it.r}, it.ancestors...)
		for i := len(kids) - 1; i >= 0; i-- { // pushed in reverse: popped in order
			stack = append(stack, item{kids[i], anc})
		}
	}
	return out, ctx.Err()
}

func (c client) match(ctx context.Context, r ref, roleName, label string, ancestors []ref, win ref, cache labelCache) (Element, bool, error) {
	st, err := c.states(ctx, r)
	if err != nil || !has(st, stateShowing) {
		return Element{}, false, nil
	}
	name, err := c.name(ctx, r)
	if err != nil {
		return Element{}, false, nil
	}
	l, err := c.labelOf(ctx, r, axpath.Node{Role: roleName, Name: name}, ancestors, cache)
	if err != nil {
		return Element{}, false, err
	}
	if label != "" && l != label {
		return Element{}, false, nil
	}
	nodes, _, err := c.path(ctx, r, win)
	if err != nil {
		return Element{}, false, err
	}
	box, _ := c.extents(ctx, r) // an element without a Component has no bounds
	return Element{
		Bus: r.Bus, Path: string(r.Path), Role: Role(roleName), Label: l, AXPath: axpath.Format(nodes),
		Bounds: image.Rect(box.X, box.Y, box.X+box.W, box.Y+box.H),
	}, true, nil
}

// SetText replaces the text of an editable element (EditableText
// SetTextContents), as a person's typing would leave it.
func (e *Enricher) SetText(ctx context.Context, el Element, text string) error {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return err
	}
	var ok bool
	if err := c.call(ctx, el.ref(), ifaceEditableText+".SetTextContents", []any{&ok}, text); err != nil {
		return fmt.Errorf("set text: %w", err)
	}
	if !ok {
		return fmt.Errorf("set text: the %s refused the text (read-only?)", el.Role)
	}
	return nil
}

// Text returns an element's whole text (Text GetText from 0 to the end),
// for replay to read a field back.
func (e *Enricher) Text(ctx context.Context, el Element) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return "", err
	}
	var s string
	if err := c.call(ctx, el.ref(), ifaceText+".GetText", []any{&s}, int32(0), int32(-1)); err != nil {
		return "", fmt.Errorf("get text: %w", err)
	}
	return s, nil
}

// DoAction performs the element's action called name ("click", "press",
// "activate"; compared without case), as AT-SPI's Action interface offers
// it. The error lists the actions there are when name is not one of them.
func (e *Enricher) DoAction(ctx context.Context, el Element, name string) error {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return err
	}
	var actions []struct{ Name, Description, KeyBinding string }
	if err := c.call(ctx, el.ref(), ifaceAction+".GetActions", []any{&actions}); err != nil {
		return fmt.Errorf("list actions: %w", err)
	}
	var names []string
	for i, a := range actions {
		if !strings.EqualFold(a.Name, name) {
			names = append(names, a.Name)
			continue
		}
		var ok bool
		if err := c.call(ctx, el.ref(), ifaceAction+".DoAction", []any{&ok}, int32(i)); err != nil {
			return fmt.Errorf("do action %q: %w", name, err)
		}
		if !ok {
			return fmt.Errorf("do action %q: the %s declined", name, el.Role)
		}
		return nil
	}
	return fmt.Errorf("the %s has no action %q; it has %q", el.Role, name, names)
}
