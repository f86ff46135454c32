//go:build windows && (amd64 || arm64)

package msaa

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Log keys.
const (
	keyErr  = "err"
	keyRole = "role"
)

const (
	// maxDepth bounds the walk up from the element: no real window nests
	// deeper, and a broken parent chain must not loop.
	maxDepth = 64
	// maxSiblings bounds the siblings read to number an element among
	// its like: past it (a list of thousands of rows) the ordinal is left
	// out rather than spend the caller's deadline on it.
	maxSiblings = 256
	// closeWait bounds how long Close waits for a call in flight: a hung
	// application can hold an MSAA call for ever.
	closeWait = 2 * time.Second
)

// Enricher resolves the element at a screen point through MSAA, and lists
// a window's elements (List). At and List are safe for concurrent use: every COM call runs on one goroutine locked to its OS
// thread, where COM was initialised, and calls wait their turn.
type Enricher struct {
	log   *slog.Logger
	reqs  chan request
	jobs  chan func() // List's walks
	quit  chan struct{}
	done  chan struct{}
	close sync.Once
}

type request struct {
	ctx   context.Context
	x, y  int
	reply chan result // buffered: the worker never waits for a caller gone
}

type result struct {
	e   *events.Enrichment
	err error
}

// New starts the enricher's COM thread. It fails when oleacc.dll or COM is
// not available.
func New(opts Options) (*Enricher, error) {
	if err := procAccessibleObjectFromPoint.Find(); err != nil {
		return nil, fmt.Errorf("msaa: load oleacc.dll: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	e := &Enricher{
		log:  log.WithGroup("msaa"),
		reqs: make(chan request),
		jobs: make(chan func()),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	started := make(chan error, 1)
	go e.loop(started)
	if err := <-started; err != nil {
		return nil, err
	}
	return e, nil
}

// loop serves At's requests on one OS thread. The thread joins COM's
// multithreaded apartment: it pumps no messages between requests, which a
// single-threaded apartment would require of it.
func (e *Enricher) loop(started chan<- error) {
	defer close(e.done)
	// Never unlocked: when the goroutine ends, its thread ends with it.
	runtime.LockOSThread()
	if err := windows.CoInitializeEx(0, windows.COINIT_MULTITHREADED); err != nil {
		started <- fmt.Errorf("msaa: CoInitializeEx: %w", err)
		return
	}
	defer windows.CoUninitialize()
	started <- nil
	for {
		select {
		case <-e.quit:
			return
		case job := <-e.jobs:
			job()
		case r := <-e.reqs:
			if err := r.ctx.Err(); err != nil { // its caller is gone
				r.reply <- result{nil, err}
				continue
			}
			en, err := e.at(r.ctx, r.x, r.y)
			r.reply <- result{en, err}
		}
	}
}

// At returns the element at the screen point (x, y), in the coordinates
// the low-level hooks report. It returns when ctx ends even if the COM
// thread is still busy (a slow application); the late answer is dropped.
// The walk up the tree gets three quarters of the time ctx leaves; past
// that the enrichment comes back with the element's own segment only (so a
// password field is still known) rather than not at all.
func (e *Enricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("msaa at (%d, %d): %w", x, y, err)
	}
	r := request{ctx: ctx, x: x, y: y, reply: make(chan result, 1)}
	select {
	case e.reqs <- r:
	case <-e.quit:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, fmt.Errorf("msaa at (%d, %d): waiting for the COM thread: %w", x, y, ctx.Err())
	}
	select {
	case res := <-r.reply:
		return res.e, res.err
	case <-ctx.Done():
		return nil, fmt.Errorf("msaa at (%d, %d): %w", x, y, ctx.Err())
	}
}

// Close stops the COM thread, waiting a little for a call in flight. It is
// safe to call twice.
func (e *Enricher) Close() error {
	e.close.Do(func() { close(e.quit) })
	select {
	case <-e.done:
		return nil
	case <-time.After(closeWait):
		return errors.New("msaa: close: an MSAA call is still in flight (the application may be hung); its thread is left to finish")
	}
}

// at runs on the COM thread.
func (e *Enricher) at(ctx context.Context, x, y int) (*events.Enrichment, error) {
	acc, child, err := accessibleObjectFromPoint(x, y)
	if err != nil {
		// Wine 8's window proxy cannot hit-test a window's frame (title
		// bar, menu bar): the point is then placed on the window itself.
		h := win32.WindowFromPoint(x, y)
		if h == 0 {
			return nil, fmt.Errorf("msaa: AccessibleObjectFromPoint(%d, %d): %w", x, y, err)
		}
		var werr error
		if acc, werr = accessibleObjectFromWindow(h, objidWindow); werr != nil {
			return nil, fmt.Errorf("msaa: AccessibleObjectFromPoint(%d, %d): %w; and the window there: %w", x, y, err, werr)
		}
		e.log.Debug("hit test failed; using the window at the point", keyErr, err)
		child = childIDSelf
	}
	defer acc.release()
	leaf, err := describe(acc, child)
	if err != nil {
		return nil, fmt.Errorf("msaa: read the element at (%d, %d): %w", x, y, err)
	}
	pctx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		pctx, cancel = context.WithDeadline(ctx, time.Now().Add(time.Until(dl)*3/4))
		defer cancel()
	}
	nodes, err := e.path(pctx, acc, child, leaf)
	if err != nil {
		// The element's own segment still says what it is.
		e.log.Debug("path cut short", keyErr, err, keyRole, leaf.segment())
		nodes = []axpath.Node{{Role: leaf.segment(), Name: leaf.name}}
	}
	return enrichment(nodes, leaf), nil
}

// describe reads an element's role, name and state; never its value.
func describe(acc *iaccessible, child int32) (element, error) {
	var el element
	rv, err := acc.role(child)
	if err != nil {
		if child == childIDSelf && errors.Is(err, hresult(eNotImpl)) {
			if el, ok := describeWindowProxy(acc); ok {
				return el, nil
			}
		}
		return el, fmt.Errorf("get_accRole: %w", err)
	}
	switch rv.vt {
	case vtI4:
		el.role = Role(rv.int32())
	case vtBSTR:
		// An application's own role string: rare, kept as given.
		el.roleText = rv.takeBSTR()
	}
	rv.clear()
	// A failed name or state leaves it empty: the role alone still places
	// the element, and many objects answer E_NOTIMPL for what they lack.
	el.name, _ = acc.name(child)
	el.state, _ = acc.state(child)
	if el.role == RoleClient && el.name != "" && child == childIDSelf && editable(windowFromAccessibleObject(acc)) {
		// A generic client proxy names a window by its text, which for a
		// field it does not know as one (Wine's rich edits and combo
		// boxes) is the field's value.
		el.name = ""
	}
	return el, nil
}

// describeWindowProxy stands in for a window object whose properties are
// not implemented: Wine 8's window proxy answers E_NOTIMPL to all but
// accHitTest. What Windows' own proxy answers is rebuilt from the window
// handle: the role is always "window", and the name is its client
// object's (the title; for an edit, its label).
func describeWindowProxy(acc *iaccessible) (element, bool) {
	h := windowFromAccessibleObject(acc)
	if h == 0 {
		return element{}, false
	}
	client, err := accessibleObjectFromWindow(h, objidClient)
	if err != nil {
		return element{}, false
	}
	defer client.release()
	cel, err := describe(client, childIDSelf)
	if err != nil {
		return element{}, false
	}
	return element{role: RoleWindow, name: cel.name}, true
}

// editable reports whether a window's class is that of a field whose text
// is its value, in the common toolkits: "Edit", "RichEdit20W",
// "RICHEDIT50W", "ComboBox", "ComboBoxEx32", Delphi's "TEdit" and
// "TMemo", "Scintilla".
func editable(h windows.HWND) bool {
	if h == 0 {
		return false
	}
	var buf [256]uint16
	n, err := windows.GetClassName(h, &buf[0], int32(len(buf)))
	if err != nil {
		return false
	}
	class := strings.ToLower(windows.UTF16ToString(buf[:n]))
	for _, s := range []string{"edit", "combo", "memo", "scintilla"} {
		if strings.Contains(class, s) {
			return true
		}
	}
	return false
}

// path walks from the element up to its top-level window and returns the
// nodes, window first, each numbered among its like siblings.
func (e *Enricher) path(ctx context.Context, acc *iaccessible, child int32, leaf element) ([]axpath.Node, error) {
	cur := ref{acc: acc, child: child}
	acc.addRef() // cur owns a reference, like every parent after it
	defer func() { cur.acc.release() }()
	curEl := leaf
	var up []axpath.Node // the element first
	for depth := 0; ; depth++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if depth == maxDepth {
			return nil, fmt.Errorf("deeper than %d elements", maxDepth)
		}
		if curEl.role == RoleWindow && cur.child == childIDSelf && isTopLevel(cur.acc) {
			up = append(up, axpath.Node{Role: curEl.segment(), Name: curEl.name})
			break
		}
		parent, err := e.parentOf(cur, curEl)
		if err != nil {
			return nil, err
		}
		if parent == nil { // the tree's root, short of a window
			up = append(up, axpath.Node{Role: curEl.segment(), Name: curEl.name})
			break
		}
		ord := e.ordinal(ctx, parent, cur, curEl)
		up = append(up, axpath.Node{Role: curEl.segment(), Name: curEl.name, Ordinal: ord})
		pEl, err := describe(parent, childIDSelf)
		if err != nil {
			parent.release()
			return nil, fmt.Errorf("read an ancestor: %w", err)
		}
		cur.acc.release()
		cur, curEl = ref{acc: parent, child: childIDSelf}, pEl
	}
	nodes := make([]axpath.Node, len(up))
	for i, n := range up {
		nodes[len(up)-1-i] = n
	}
	return nodes, nil
}

// ref is an element: an object, or a simple element (child > 0) within one.
type ref struct {
	acc   *iaccessible
	child int32
}

// parentOf returns a new reference to the element's parent, or nil at the
// root. A simple element's parent is the object holding it. When an object
// cannot say (Wine 8's window objects answer E_NOTIMPL), the parent is
// found as Windows' own proxies find it: a window's parent is the client
// object of its parent window.
func (e *Enricher) parentOf(cur ref, el element) (*iaccessible, error) {
	if cur.child != childIDSelf {
		cur.acc.addRef()
		return cur.acc, nil
	}
	p, err := cur.acc.parent()
	if err == nil {
		if p != nil && isDesktop(p) {
			p.release()
			return nil, nil
		}
		return p, nil
	}
	if el.role != RoleWindow {
		return nil, fmt.Errorf("get_accParent of a %s: %w", el.segment(), err)
	}
	h := windowFromAccessibleObject(cur.acc)
	if h == 0 {
		return nil, fmt.Errorf("get_accParent of a window: %w; and it names no window handle", err)
	}
	ph := win32.Ancestor(h, gaParent)
	if ph == 0 || ph == windows.GetDesktopWindow() {
		return nil, nil
	}
	e.log.Debug("parent from the window tree", keyErr, err)
	p, err = accessibleObjectFromWindow(ph, objidClient)
	if err != nil {
		return nil, fmt.Errorf("client object of the parent window: %w", err)
	}
	return p, nil
}

// isTopLevel reports whether a window object is a top-level window's.
func isTopLevel(acc *iaccessible) bool {
	h := windowFromAccessibleObject(acc)
	return h != 0 && win32.Ancestor(h, gaRoot) == h
}

// isDesktop reports whether an object belongs to the desktop window, above
// every top-level window; the path stops below it.
func isDesktop(acc *iaccessible) bool {
	h := windowFromAccessibleObject(acc)
	return h != 0 && h == windows.GetDesktopWindow()
}

// ordinal numbers cur among the siblings under parent that share its role
// and name (axpath.Ordinal); 0 when it is alone, or when the siblings are
// too many or cannot be read in time.
func (e *Enricher) ordinal(ctx context.Context, parent *iaccessible, cur ref, el element) int {
	n, err := parent.childCount()
	if err != nil || n < 2 || n > maxSiblings {
		return 0
	}
	kids, err := accessibleChildren(parent, n)
	if err != nil {
		e.log.Debug("AccessibleChildren failed", keyErr, err)
		return 0
	}
	defer func() {
		for i := range kids {
			kids[i].clear()
		}
	}()
	var me struct {
		place
		read bool
	}
	siblings := make([]axpath.Node, 0, len(kids))
	at := -1
	for i := range kids {
		if ctx.Err() != nil {
			return 0
		}
		k := &kids[i]
		switch k.vt {
		case vtI4:
			sib, err := describe(parent, k.int32())
			if err != nil {
				return 0
			}
			siblings = append(siblings, axpath.Node{Role: sib.segment(), Name: sib.name})
			if cur.child != childIDSelf && k.int32() == cur.child && cur.acc == parent {
				at = i
			}
		case vtDispatch:
			obj, err := k.dispatch().queryInterface(&iidIAccessible)
			if err != nil {
				return 0
			}
			sib, err := describe(obj, childIDSelf)
			if err != nil {
				obj.release()
				return 0
			}
			siblings = append(siblings, axpath.Node{Role: sib.segment(), Name: sib.name})
			if at < 0 && cur.child == childIDSelf && sib.segment() == el.segment() && sib.name == el.name {
				if !me.read {
					me.place, me.read = placeOf(cur.acc), true
				}
				if sameObject(obj, me.place) {
					at = i
				}
			}
			obj.release()
		default:
			return 0
		}
	}
	if at < 0 {
		return 0
	}
	return axpath.Ordinal(siblings, at)
}

// place is what tells one object from another of the same role and name.
type place struct {
	id     uintptr // IUnknown
	hwnd   windows.HWND
	rect   [4]int32
	rectOK bool
}

func placeOf(obj *iaccessible) place {
	p := place{id: obj.identity(), hwnd: windowFromAccessibleObject(obj)}
	r, err := obj.location(childIDSelf)
	p.rect, p.rectOK = r, err == nil
	return p
}

// sameObject reports whether obj is the element at p. COM identity settles
// it for objects an application keeps; oleacc's proxies are made afresh on
// every request, so for them the window handle and the screen rectangle
// have to (the handle alone where, as on Wine, a window proxy has no
// location).
func sameObject(obj *iaccessible, p place) bool {
	q := placeOf(obj)
	if p.id != 0 && q.id == p.id {
		return true
	}
	return q.hwnd == p.hwnd && q.rectOK == p.rectOK && q.rect == p.rect
}
