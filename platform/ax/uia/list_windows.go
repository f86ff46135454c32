package uia

import (
	"context"
	"fmt"
	"image"
	"strings"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"
	"golang.org/x/sys/windows"
)

// treeScopeSubtree is TreeScope_Element | TreeScope_Children |
// TreeScope_Descendants: the cache request reads the whole control view.
const treeScopeSubtree = 7

// List returns the on-screen elements of the top-level window whose name
// contains window ("" for the foreground window), in tree order, at most
// limit of them; none (and no error) when there is no such window.
//
// One BuildUpdatedCache call reads the window's whole control view with
// every property the listing needs (UIA makes one cross-process trip, not
// one per property per element); only the LabeledBy elements' names and
// the values of fields that have a ValuePattern and are not passwords are
// asked for afterwards, one call each. The nodes' Elements stay valid
// until the next List, Release or Close: a listing replaces the last one,
// so resolving a selector at every step holds one window's elements, not
// every listing's.
func (c *Client) List(ctx context.Context, window string, limit int) ([]Node, error) {
	v, err := c.do(ctx, func(ctx context.Context) (any, error) {
		c.forget(c.listed)
		c.listed = nil
		win, err := c.window(ctx, window)
		if err != nil || win == nil {
			return []Node(nil), err
		}
		defer win.release()
		return c.list(ctx, win, limit)
	}, func(v any) {
		for _, n := range v.([]Node) {
			c.forget([]uint64{n.h.id})
		}
	})
	nodes, _ := v.([]Node)
	return nodes, err
}

// window is the first top-level window whose name contains title, or the
// foreground window for ""; nil when there is none. The caller releases it.
func (c *Client) window(ctx context.Context, title string) (*object, error) {
	if title == "" {
		wins, err := c.windows(ctx, "")
		if len(wins) == 0 {
			return nil, err
		}
		return wins[0], err
	}
	if c.root == nil {
		return nil, fmt.Errorf("uia: find window %q: UI Automation gave no desktop element", title)
	}
	w, err := c.walk(mGetFirstChildElement, "GetFirstChildElement", c.root)
	for i := 0; w != nil && err == nil && i < maxSiblings; i++ {
		if name, nerr := getString(w, mGetCurrentName, "get_CurrentName"); nerr == nil && strings.Contains(name, title) {
			return w, nil
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
		return nil, fmt.Errorf("uia: list top-level windows: %w", err)
	}
	return nil, nil
}

// cacheRequest is the client's request for a listing's properties over a
// subtree of the control view (a new request's tree filter), made once.
func (c *Client) cacheRequest() (*object, error) {
	if c.cacheReq != nil {
		return c.cacheReq, nil
	}
	req, err := getObject(c.auto, mCreateCacheRequest, "CreateCacheRequest")
	if err != nil {
		return nil, err
	}
	if req == nil {
		return nil, fmt.Errorf("uia: CreateCacheRequest gave no request")
	}
	for _, p := range []uintptr{propControlType, propName, propAutomationID, propClassName, propIsPassword,
		propIsOffscreen, propBoundingRectangle, propLabeledBy, propProcessID, propIsValuePatternAvailable} {
		if err := check("AddProperty", req.callU(mAddProperty, p)); err != nil {
			req.release()
			return nil, err
		}
	}
	if err := check("put_TreeScope", req.callU(mPutTreeScope, treeScopeSubtree)); err != nil {
		req.release()
		return nil, err
	}
	c.cacheReq = req
	return req, nil
}

// list reads win's cached subtree and keeps the listed elements.
func (c *Client) list(ctx context.Context, win *object, limit int) ([]Node, error) {
	req, err := c.cacheRequest()
	if err != nil {
		return nil, err
	}
	var top *object
	if err := check("BuildUpdatedCache", win.callUP(mBuildUpdatedCache, uintptr(unsafe.Pointer(req)), unsafe.Pointer(&top))); err != nil {
		return nil, err
	}
	if top == nil {
		return nil, fmt.Errorf("uia: BuildUpdatedCache gave no element")
	}
	raws, objs, err := c.walkCached(ctx, top)
	defer func() {
		for _, o := range objs {
			o.release()
		}
	}()
	if err != nil {
		return nil, err
	}
	app := win32.ImageName(uint32(raws[0].pid))
	nodes, from := assemble(raws, app, limit)
	for j, i := range from {
		objs[i].call(mAddRef) // the deferred release drops the walk's reference
		c.nextID++
		c.els[c.nextID] = objs[i]
		nodes[j].h = handle{c.nextID}
		c.listed = append(c.listed, c.nextID)
	}
	return nodes, nil
}

// walkCached reads the cached elements from top down, depth first, and
// returns them with their objects (which the caller releases; top is the
// first). LabeledBy is matched to the walk afterwards, since a label may
// come after its field.
func (c *Client) walkCached(ctx context.Context, top *object) ([]raw, []*object, error) {
	type pending struct {
		at int
		by *object
	}
	var (
		raws   []raw
		objs   []*object
		labels []pending
	)
	defer func() {
		for _, l := range labels {
			l.by.release()
		}
	}()
	type item struct {
		o      *object
		parent int
	}
	stack := []item{{top, -1}}
	for len(stack) > 0 {
		if len(raws) >= maxFindScan {
			for _, it := range stack {
				it.o.release()
			}
			break
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		r, by := readCached(it.o)
		r.parent = it.parent
		raws, objs = append(raws, r), append(objs, it.o)
		if by != nil {
			labels = append(labels, pending{len(raws) - 1, by})
		}
		kids, err := cachedChildren(it.o)
		if err != nil {
			kids = nil // an element gone mid-read keeps no children; the rest stands
		}
		for k := len(kids) - 1; k >= 0; k-- {
			stack = append(stack, item{kids[k], len(raws) - 1})
		}
		if err := ctx.Err(); err != nil {
			for _, it := range stack {
				it.o.release()
			}
			return nil, objs, fmt.Errorf("uia: list: %w", err)
		}
	}
	for _, l := range labels {
		name, _ := getString(l.by, mGetCurrentName, "get_CurrentName")
		raws[l.at].labelName = name
		for j := range raws {
			if raws[j].name == name && c.same(l.by, objs[j]) {
				raws[l.at].labeledBy = j
				break
			}
		}
	}
	for i := range raws {
		if raws[i].hasValue && !raws[i].password {
			raws[i].value = currentValue(objs[i])
		}
	}
	return raws, objs, nil
}

// readCached reads an element's cached properties, and its LabeledBy
// element (the caller's to release). A property the provider did not give
// stays empty. A field with a ValuePattern and no IsPassword is marked for
// its value to be read; a password field's is never asked for.
func readCached(o *object) (raw, *object) {
	r := raw{labeledBy: -1}
	r.ct, _ = getInt32(o, mGetCachedControlType, "get_CachedControlType")
	pw, _ := getInt32(o, mGetCachedIsPassword, "get_CachedIsPassword")
	off, _ := getInt32(o, mGetCachedIsOffscreen, "get_CachedIsOffscreen")
	pid, _ := getInt32(o, mGetCachedProcessID, "get_CachedProcessId")
	r.password, r.offscreen, r.pid = pw != 0, off != 0, int(pid)
	r.name, _ = getString(o, mGetCachedName, "get_CachedName")
	r.id, _ = getString(o, mGetCachedAutomationID, "get_CachedAutomationId")
	r.class, _ = getString(o, mGetCachedClassName, "get_CachedClassName")
	var rc windows.Rect
	if check("get_CachedBoundingRectangle", o.callP(mGetCachedBoundingRect, unsafe.Pointer(&rc))) == nil {
		r.bounds = image.Rect(int(rc.Left), int(rc.Top), int(rc.Right), int(rc.Bottom))
	}
	r.hasValue = !r.password && cachedBool(o, propIsValuePatternAvailable)
	by, err := getObject(o, mGetCachedLabeledBy, "get_CachedLabeledBy")
	if err != nil {
		by = nil
	}
	return r, by
}

// cachedChildren are an element's cached children, each the caller's to
// release.
func cachedChildren(o *object) ([]*object, error) {
	arr, err := getObject(o, mGetCachedChildren, "GetCachedChildren")
	if err != nil || arr == nil { // NULL: no children
		return nil, err
	}
	defer arr.release()
	n, err := getInt32(arr, mGetLength, "get_Length")
	if err != nil {
		return nil, err
	}
	kids := make([]*object, 0, min(int(n), maxSiblings))
	for i := 0; i < int(n) && i < maxSiblings; i++ {
		var k *object
		if err := check("GetElement", arr.callUP(mGetElement, uintptr(i), unsafe.Pointer(&k))); err != nil {
			for _, k := range kids {
				k.release()
			}
			return nil, err
		}
		if k != nil {
			kids = append(kids, k)
		}
	}
	return kids, nil
}

// cachedBool reads a cached VT_BOOL property; false when it is not one.
func cachedBool(o *object, prop uintptr) bool {
	var v variant
	if check("GetCachedPropertyValue", o.callUP(mGetCachedPropertyValue, prop, unsafe.Pointer(&v))) != nil {
		return false
	}
	defer v.clear()
	return v.vt == vtBool && *(*int16)(unsafe.Pointer(&v.val[0])) != 0
}

// currentValue reads ValuePattern's value now; "" when the provider gives
// none or refuses.
func currentValue(o *object) string {
	var v variant
	if check("GetCurrentPropertyValue", o.callUP(mGetCurrentPropertyValue, propValueValue, unsafe.Pointer(&v))) != nil {
		return ""
	}
	defer v.clear()
	if v.vt != vtBSTR {
		return ""
	}
	b := *(**uint16)(unsafe.Pointer(&v.val[0]))
	return windows.UTF16PtrToString(b)
}
