//go:build windows && (amd64 || arm64)

package msaa

import (
	"context"
	"fmt"
	"image"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
	"github.com/reprise-dev/reprise/platform/win32"
)

const (
	gwChild    = 5
	gwHwndNext = 2
	gwlStyle   = ^uintptr(15) // GWL_STYLE, -16
	wsChild    = 0x40000000
)

var _ ax.Lister = (*Enricher)(nil)

// List returns the visible elements of the top-level window whose title
// contains window ("" for the foreground window), in tree order, at most
// limit of them; none (and no error) when there is no such window.
//
// The walk follows the window tree, as oleacc's client proxies do (Wine 8's
// window objects answer none of accNavigate, accChild or accParent): each
// visible child window is its client object's element, with its simple
// children (child ids) under it. An element is its role, name, state,
// location and, unless it is protected (a password field), its value.
// A child window's control id is its ID, the one UI Automation gives as
// its AutomationId: the walk has the window handle, so it costs one
// GetDlgCtrlID. The top-level window is one element, "window", holding
// what its client object holds.
func (e *Enricher) List(ctx context.Context, window string, limit int) ([]ax.Node, error) {
	type listed struct {
		nodes []ax.Node
		err   error
	}
	reply := make(chan listed, 1)
	job := func() {
		if err := ctx.Err(); err != nil {
			reply <- listed{nil, err}
			return
		}
		n, err := e.list(ctx, window, limit)
		reply <- listed{n, err}
	}
	select {
	case e.jobs <- job:
	case <-e.quit:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, fmt.Errorf("msaa list %q: waiting for the COM thread: %w", window, ctx.Err())
	}
	select {
	case r := <-reply:
		return r.nodes, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("msaa list %q: %w", window, ctx.Err())
	}
}

// walk is one listing's state on the COM thread.
type walk struct {
	ctx   context.Context
	limit int
	raws  []raw
}

func (e *Enricher) list(ctx context.Context, window string, limit int) ([]ax.Node, error) {
	top := topWindow(window)
	if top == 0 {
		return nil, nil
	}
	title := win32.WindowText(top)
	w := &walk{ctx: ctx, limit: limit}
	w.raws = append(w.raws, raw{
		parent: -1, segs: []axpath.Node{{Role: RoleWindow.Segment(), Name: title}, {Role: RoleClient.Segment(), Name: title}},
		el: element{role: RoleWindow, name: title}, box: screenRect(top), h: Handle{Window: uintptr(top)},
	})
	if client, err := accessibleObjectFromWindow(top, objidClient); err == nil {
		w.simple(client, top, 0)
		client.release()
	}
	if err := w.children(top, 0, 0); err != nil {
		return nil, fmt.Errorf("msaa list %q: %w", title, err)
	}
	var pid uint32
	_, _ = windows.GetWindowThreadProcessId(top, &pid)
	return assemble(w.raws, win32.ImageName(pid), limit), nil
}

// children adds h's visible child windows and what is in them.
func (w *walk) children(h windows.HWND, at, depth int) error {
	if depth >= maxDepth {
		return nil
	}
	for c := getWindow(h, gwChild); c != 0; c = getWindow(c, gwHwndNext) {
		if len(w.raws) >= w.limit {
			return nil
		}
		if err := w.ctx.Err(); err != nil {
			return err
		}
		if !windows.IsWindowVisible(c) {
			continue // nor anything in it
		}
		if err := w.window(c, at, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// window adds child window h, read through its client object, then the
// object's simple children and h's child windows. A window whose object
// cannot be read is left out with its children: it is gone, or not a
// control.
func (w *walk) window(h windows.HWND, parent, depth int) error {
	client, err := accessibleObjectFromWindow(h, objidClient)
	if err != nil {
		return nil
	}
	defer client.release()
	el, err := describe(client, childIDSelf)
	if err != nil || el.state&StateInvisible != 0 {
		return nil
	}
	style, _, _ := procGetWindowLongW.Call(uintptr(h), gwlStyle)
	if el.role == RoleClient && el.roleText == "" {
		// Wine 8's oleacc has no proxy for buttons and statics: their
		// client object is a generic one. Windows' role comes from the
		// class, as its own proxies give it.
		if r, ok := ClassRole(className(h), uint32(style)); ok {
			el.role = r
		}
	}
	r := raw{parent: parent, el: el, h: Handle{Window: uintptr(h)},
		segs: []axpath.Node{{Role: RoleWindow.Segment(), Name: el.name}, {Role: el.segment(), Name: el.name}}}
	w.read(client, childIDSelf, &r)
	if style&wsChild != 0 {
		if id, _, _ := procGetDlgCtrlID.Call(uintptr(h)); int32(id) > 0 {
			r.id = strconv.Itoa(int(int32(id)))
		}
	}
	w.raws = append(w.raws, r)
	at := len(w.raws) - 1
	w.simple(client, h, at)
	return w.children(h, at, depth)
}

// simple adds the client object's simple children (child ids), which
// have no window: a list box's items, a status bar's parts. Objects among
// its children are child windows, which the window walk reads.
func (w *walk) simple(client *iaccessible, h windows.HWND, parent int) {
	n, err := client.childCount()
	if err != nil || n == 0 {
		return
	}
	kids, err := accessibleChildren(client, min(n, maxListChildren))
	if err != nil {
		return
	}
	defer func() {
		for i := range kids {
			kids[i].clear()
		}
	}()
	for i := range kids {
		if kids[i].vt != vtI4 || len(w.raws) >= w.limit || w.ctx.Err() != nil {
			continue
		}
		id := kids[i].int32()
		el, err := describe(client, id)
		if err != nil || el.state&StateInvisible != 0 {
			continue
		}
		r := raw{parent: parent, el: el, h: Handle{Window: uintptr(h), Child: id},
			segs: []axpath.Node{{Role: el.segment(), Name: el.name}}}
		w.read(client, id, &r)
		w.raws = append(w.raws, r)
	}
}

// maxListChildren bounds the simple children read of one object.
const maxListChildren = 2000

// read fills in an element's location and, for a role that has one and
// unless it is protected, its value.
func (w *walk) read(acc *iaccessible, child int32, r *raw) {
	if loc, err := acc.location(child); err == nil {
		r.box = image.Rect(int(loc[0]), int(loc[1]), int(loc[0]+loc[2]), int(loc[1]+loc[3]))
	}
	if r.el.state&StateProtected == 0 && r.el.roleText == "" && r.el.role.HasValue() {
		r.value, _ = acc.value(child)
	}
}

// className is a window's class name, "" when it cannot be read.
func className(h windows.HWND) string {
	var buf [256]uint16
	n, err := windows.GetClassName(h, &buf[0], int32(len(buf)))
	if err != nil {
		return ""
	}
	return windows.UTF16ToString(buf[:n])
}

// topWindow is the first visible top-level window, in z-order, whose
// title contains title, or the foreground window for "". The desktop's
// children are walked rather than enumerated with EnumWindows, whose
// callback would cost one of the process's few Go callbacks per listing.
func topWindow(title string) windows.HWND {
	if title == "" {
		return windows.GetForegroundWindow()
	}
	h := getWindow(windows.GetDesktopWindow(), gwChild)
	for i := 0; h != 0 && i < maxTopLevel; i++ {
		if windows.IsWindowVisible(h) && strings.Contains(win32.WindowText(h), title) {
			return h
		}
		h = getWindow(h, gwHwndNext)
	}
	return 0
}

// maxTopLevel bounds the top-level windows looked at.
const maxTopLevel = 10000

func getWindow(h windows.HWND, cmd uintptr) windows.HWND {
	r, _, _ := procGetWindow.Call(uintptr(h), cmd)
	return windows.HWND(r)
}

func screenRect(h windows.HWND) image.Rectangle {
	var r windows.Rect
	if ok, _, _ := procWindowRect.Call(uintptr(h), uintptr(unsafe.Pointer(&r))); ok == 0 {
		return image.Rectangle{}
	}
	return image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom))
}
