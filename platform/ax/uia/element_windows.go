package uia

import (
	"context"
	"fmt"
	"image"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Bounds on walking the tree, against providers that loop or sprawl.
const (
	maxDepth    = 64
	maxSiblings = 2000
)

// info is what a path segment needs of an element.
type info struct {
	ct       int32
	password bool
	seg      string
	name     string
}

// kind reads an element's control type and password flag.
func kind(el *object) (ct int32, password bool, err error) {
	if ct, err = getInt32(el, mGetCurrentControlType, "get_CurrentControlType"); err != nil {
		return 0, false, err
	}
	pw, err := getInt32(el, mGetCurrentIsPassword, "get_CurrentIsPassword")
	return ct, pw != 0, err
}

func describe(el *object) (info, error) {
	ct, pw, err := kind(el)
	if err != nil {
		return info{}, err
	}
	name, err := getString(el, mGetCurrentName, "get_CurrentName")
	return info{ct: ct, password: pw, seg: SegmentRole(ct, pw), name: name}, err
}

// elementRole is reprise's role for an element whose segment role is seg.
func elementRole(el *object, seg string) string {
	if seg != "Window" {
		return Role(seg)
	}
	class, _ := getString(el, mGetCurrentClassName, "get_CurrentClassName") // no class: not a Win32 dialog
	return roleOf(seg, class)
}

// label is an element's Name, else the Name of the element labelling it.
func label(el *object, name string) string {
	if name != "" {
		return name
	}
	by, err := getObject(el, mGetCurrentLabeledBy, "get_CurrentLabeledBy")
	if err != nil || by == nil {
		return ""
	}
	defer by.release()
	l, _ := getString(by, mGetCurrentName, "get_CurrentName")
	return l
}

func bounds(el *object) (image.Rectangle, error) {
	var r windows.Rect
	if err := check("get_CurrentBoundingRectangle", el.callP(mGetCurrentBoundingRect, unsafe.Pointer(&r))); err != nil {
		return image.Rectangle{}, err
	}
	return image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom)), nil
}

// walk calls a tree walker method that takes an element and gives one
// (nil at the end of the tree).
func (c *Client) walk(m int, name string, el *object) (*object, error) {
	if c.walker == nil {
		return nil, c.walkErr
	}
	var out *object
	if err := check(name, c.walker.callUP(m, uintptr(unsafe.Pointer(el)), unsafe.Pointer(&out))); err != nil {
		return nil, err
	}
	return out, nil
}

func (c *Client) same(a, b *object) bool {
	var eq int32
	err := check("CompareElements", c.auto.callUUP(mCompareElements, uintptr(unsafe.Pointer(a)), uintptr(unsafe.Pointer(b)), unsafe.Pointer(&eq)))
	return err == nil && eq != 0
}

// path is the path of el from its top-level window down, and el's info.
// An element that is the desktop itself has no path.
func (c *Client) path(ctx context.Context, el *object) ([]axpath.Node, info, error) {
	me, err := describe(el)
	if err != nil {
		return nil, info{}, err
	}
	if c.root != nil && c.same(el, c.root) {
		return nil, me, nil
	}
	chain := []*object{el} // el, its parent, ..., its top-level window; all but el are ours
	defer func() {
		for _, o := range chain[1:] {
			o.release()
		}
	}()
	for len(chain) < maxDepth {
		p, err := c.walk(mGetParentElement, "GetParentElement", chain[len(chain)-1])
		if err != nil {
			return nil, info{}, err
		}
		if p == nil {
			if c.root == nil && len(chain) > 1 {
				// Without the desktop to compare with, the element
				// that has no parent is taken to be it.
				chain[len(chain)-1].release()
				chain = chain[:len(chain)-1]
			}
			break
		}
		if c.root != nil && c.same(p, c.root) {
			p.release()
			break
		}
		chain = append(chain, p)
		if err := ctx.Err(); err != nil {
			return nil, info{}, fmt.Errorf("uia: path: %w", err)
		}
	}
	nodes := make([]axpath.Node, len(chain))
	for i, o := range chain {
		in := me
		if i > 0 {
			if in, err = describe(o); err != nil {
				return nil, info{}, err
			}
		}
		n := axpath.Node{Role: in.seg, Name: in.name}
		if i+1 < len(chain) { // a top-level window gets no ordinal
			if n.Ordinal, err = c.ordinal(ctx, chain[i+1], o, in); err != nil {
				return nil, info{}, err
			}
		}
		nodes[len(chain)-1-i] = n
	}
	return nodes, me, nil
}

// ordinal is el's 1-based position among parent's children that share its
// segment role and name, or 0 when none other does. Only siblings of el's
// control type (or, for a password field, any password field) have their
// names read, and only those sharing role and name are compared with el.
func (c *Client) ordinal(ctx context.Context, parent, el *object, me info) (int, error) {
	n, same, found := 0, 0, false
	sib, err := c.walk(mGetFirstChildElement, "GetFirstChildElement", parent)
	for i := 0; sib != nil && err == nil && i < maxSiblings; i++ {
		if sameSegment(sib, me) {
			same++
			if !found {
				n++
				found = c.same(sib, el)
			}
		}
		if err = ctx.Err(); err != nil {
			break
		}
		next, nerr := c.walk(mGetNextSiblingElement, "GetNextSiblingElement", sib)
		sib.release()
		sib, err = next, nerr
	}
	sib.release()
	if err != nil {
		return 0, fmt.Errorf("uia: sibling ordinal: %w", err)
	}
	if same < 2 || !found {
		return 0, nil
	}
	return n, nil
}

// sameSegment reports whether sib has me's segment role and name; a
// sibling whose properties cannot be read (gone mid-walk) does not count.
func sameSegment(sib *object, me info) bool {
	ct, err := getInt32(sib, mGetCurrentControlType, "get_CurrentControlType")
	if err != nil || (ct != me.ct && !me.password) {
		return false
	}
	pw, err := getInt32(sib, mGetCurrentIsPassword, "get_CurrentIsPassword")
	if err != nil || SegmentRole(ct, pw != 0) != me.seg {
		return false
	}
	name, err := getString(sib, mGetCurrentName, "get_CurrentName")
	return err == nil && name == me.name
}

// At describes the element at screen point (x, y): its path, role, label
// and AutomationId. It satisfies capture/x11.Enricher's shape, for the
// Windows floor source.
func (c *Client) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	v, err := c.do(ctx, func(ctx context.Context) (any, error) {
		el, err := c.elementFromPoint(x, y)
		if err != nil || el == nil {
			return (*events.Enrichment)(nil), err
		}
		defer el.release()
		nodes, me, err := c.path(ctx, el)
		if err != nil || len(nodes) == 0 {
			return (*events.Enrichment)(nil), err
		}
		aid, _ := getString(el, mGetCurrentAutomationID, "get_CurrentAutomationId") // optional
		return enrichment(nodes, elementRole(el, me.seg), label(el, me.name), aid), nil
	}, nil)
	e, _ := v.(*events.Enrichment)
	return e, err
}

// elementFromPoint passes POINT by value: on 64-bit Windows its 8 bytes
// travel in one register (x in the low half), on 32-bit as two stack words.
func (c *Client) elementFromPoint(x, y int) (*object, error) {
	var el *object
	var hr HRESULT
	if unsafe.Sizeof(uintptr(0)) == 8 {
		pt := uint64(uint32(int32(x))) | uint64(uint32(int32(y)))<<32
		hr = c.auto.callUP(mElementFromPoint, uintptr(pt), unsafe.Pointer(&el))
	} else {
		hr = c.auto.callUUP(mElementFromPoint, uintptr(int32(x)), uintptr(int32(y)), unsafe.Pointer(&el))
	}
	if err := check("ElementFromPoint", hr); err != nil {
		return nil, err
	}
	return el, nil
}
