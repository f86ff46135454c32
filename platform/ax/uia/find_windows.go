package uia

import (
	"context"
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// maxFindScan bounds how many elements Find looks at in one window.
const maxFindScan = 5000

// Find lists the on-screen elements in the top-level windows titled
// windowTitle (or, when it is "", the foreground window) whose reprise
// role is role and whose label (as At gives it) is label; an empty role or
// label matches any. They come in tree order, depth first. The caller
// applies the exactly-one rule and releases what it no longer needs
// (Release); Close releases the rest.
func (c *Client) Find(ctx context.Context, windowTitle, role, label string) ([]Element, error) {
	v, err := c.do(ctx, func(ctx context.Context) (any, error) {
		wins, err := c.windows(ctx, windowTitle)
		if err != nil {
			return nil, err
		}
		if len(wins) == 0 {
			return nil, ErrNoWindow
		}
		var out []Element
		for i, w := range wins {
			found, err := c.findIn(ctx, w, role, label)
			out = append(out, found...)
			if err != nil {
				for _, w := range wins[i+1:] { // findIn released wins[i]
					w.release()
				}
				c.forget(ids(out))
				return nil, err
			}
		}
		return out, nil
	}, func(v any) { c.forget(ids(v.([]Element))) })
	els, _ := v.([]Element)
	return els, err
}

func ids(els []Element) []uint64 {
	out := make([]uint64, len(els))
	for i, e := range els {
		out[i] = e.h.id
	}
	return out
}

// windows returns the top-level windows named title, or the foreground
// window when title is "". They are the caller's to release.
func (c *Client) windows(ctx context.Context, title string) ([]*object, error) {
	if title == "" {
		h := windows.GetForegroundWindow()
		if h == 0 {
			return nil, nil
		}
		var w *object
		if err := check("ElementFromHandle", c.auto.callUP(mElementFromHandle, uintptr(h), unsafe.Pointer(&w))); err != nil || w == nil {
			return nil, err
		}
		return []*object{w}, nil
	}
	if c.root == nil {
		return nil, fmt.Errorf("uia: find window %q: UI Automation gave no desktop element", title)
	}
	var out []*object
	w, err := c.walk(mGetFirstChildElement, "GetFirstChildElement", c.root)
	for i := 0; w != nil && err == nil && i < maxSiblings; i++ {
		if name, nerr := getString(w, mGetCurrentName, "get_CurrentName"); nerr == nil && name == title {
			w.call(mAddRef)
			out = append(out, w)
		}
		next, nerr := c.walk(mGetNextSiblingElement, "GetNextSiblingElement", w)
		w.release()
		w, err = next, nerr
		if err == nil {
			err = ctx.Err()
		}
	}
	w.release()
	if err != nil {
		for _, o := range out {
			o.release()
		}
		return nil, fmt.Errorf("uia: list top-level windows: %w", err)
	}
	return out, nil
}

// findIn walks win's subtree depth first and keeps the matches; it
// releases win and everything it walked but the matches.
func (c *Client) findIn(ctx context.Context, win *object, role, label string) ([]Element, error) {
	var out []Element
	stack := []*object{win}
	defer func() {
		for _, o := range stack {
			o.release()
		}
	}()
	for seen := 0; len(stack) > 0 && seen < maxFindScan; seen++ {
		el := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kept, err := c.match(ctx, el, role, label, &out)
		if err == nil {
			err = c.pushChildren(ctx, el, &stack)
		}
		if !kept {
			el.release()
		}
		if err != nil {
			c.forget(ids(out))
			return nil, err
		}
	}
	return out, nil
}

// match adds el to out when it has the role and label and is on screen;
// kept says out holds it now. An element that vanished mid-walk is no
// match and no error.
func (c *Client) match(ctx context.Context, el *object, role, lbl string, out *[]Element) (kept bool, err error) {
	ct, pw, err := kind(el)
	if err != nil {
		return false, ctx.Err()
	}
	r := elementRole(el, SegmentRole(ct, pw))
	if role != "" && r != role {
		return false, nil
	}
	if off, err := getInt32(el, mGetCurrentIsOffscreen, "get_CurrentIsOffscreen"); err != nil || off != 0 {
		return false, nil
	}
	name, err := getString(el, mGetCurrentName, "get_CurrentName")
	if err != nil {
		return false, nil
	}
	l := label(el, name)
	if lbl != "" && l != lbl {
		return false, nil
	}
	nodes, _, err := c.path(ctx, el)
	if err != nil {
		return false, fmt.Errorf("uia: path of a match: %w", err)
	}
	box, _ := bounds(el) // an element without bounds is still there to act on
	pid, _ := getInt32(el, mGetCurrentProcessID, "get_CurrentProcessId")
	c.nextID++
	c.els[c.nextID] = el
	*out = append(*out, Element{Role: r, Label: l, AXPath: axpath.Format(nodes), Bounds: box, PID: int(pid), h: handle{c.nextID}})
	return true, nil
}

// pushChildren pushes el's children on the stack so that they pop in order.
func (c *Client) pushChildren(ctx context.Context, el *object, stack *[]*object) error {
	var kids []*object
	kid, err := c.walk(mGetFirstChildElement, "GetFirstChildElement", el)
	for i := 0; kid != nil && err == nil && i < maxSiblings; i++ {
		kids = append(kids, kid)
		kid, err = c.walk(mGetNextSiblingElement, "GetNextSiblingElement", kid)
	}
	kid.release()
	for i := len(kids) - 1; i >= 0; i-- {
		*stack = append(*stack, kids[i])
	}
	if err != nil {
		return nil // a subtree that changed mid-walk is skipped, not fatal
	}
	return ctx.Err()
}
