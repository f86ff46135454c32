package axmac

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
	"github.com/reprise-dev/reprise/platform/cocoa"
)

// Bounds of one Find: how many elements it reads in one window, and how
// deep below the window it goes. AX is a graph rather than a tree (an app
// can hand out an element again below itself), so both bound the walk.
const (
	maxFindScan  = 5000
	maxFindDepth = 64
)

// handle is an Element's retained AXUIElementRef, guarded by its
// Enricher's mutex; ref is 0 once released.
type handle struct {
	e   *Enricher
	ref uintptr
}

// Release gives the element's reference back. Safe to call twice, and on
// an Element that Find did not return.
func (el Element) Release() {
	if el.h == nil {
		return
	}
	e := el.h.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if el.h.ref != 0 {
		cocoa.CFRelease(el.h.ref)
		el.h.ref = 0
		delete(e.live, el.h)
	}
}

// retain returns el's reference retained once more, for the caller to
// release when done, so that a Release or Close meanwhile cannot free it
// under the caller.
func (e *Enricher) retain(el Element) (uintptr, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sys == 0 {
		return 0, ErrClosed
	}
	if el.h == nil || el.h.e != e || el.h.ref == 0 {
		return 0, ErrReleased
	}
	return cocoa.CFRetain(el.h.ref), nil
}

// system returns the system-wide element retained, for the caller to
// release.
func (e *Enricher) system() (uintptr, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sys == 0 {
		return 0, ErrClosed
	}
	return cocoa.CFRetain(e.sys), nil
}

// Find lists the elements in the on-screen windows titled windowTitle (or,
// when it is "", the focused window) whose reprise role is role and whose
// label (by At's rules) is label; an empty role or label matches any. They
// come in tree order, depth first, at most maxFindScan elements and
// maxFindDepth levels into each window. This process's own windows are
// never searched. Find reads no element's value. The caller releases the
// elements it no longer needs (Element.Release); Close releases the rest.
// It returns ErrNoWindow when no window matches.
func (e *Enricher) Find(ctx context.Context, windowTitle, role, label string) ([]Element, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*e.opts.Timeout)
	defer cancel()
	sys, err := e.system()
	if err != nil {
		return nil, err
	}
	defer cocoa.CFRelease(sys)
	wins, err := e.windows(ctx, sys, windowTitle)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, w := range wins {
			cocoa.CFRelease(w)
		}
	}()
	if len(wins) == 0 {
		return nil, ErrNoWindow
	}
	var hits []uintptr
	for _, w := range wins {
		found, err := findIn(ctx, w, role, label)
		for _, h := range found {
			if err == nil {
				hits = append(hits, h)
			} else {
				cocoa.CFRelease(h)
			}
		}
		if err != nil {
			for _, h := range hits {
				cocoa.CFRelease(h)
			}
			return nil, fmt.Errorf("axmac: find in window %q: %w", windowTitle, err)
		}
	}
	out := make([]Element, 0, len(hits))
	// The walk may have used up ctx; the paths are bounded without it, and
	// a path cut short would hide a secure field (IsPassword).
	describe := context.WithoutCancel(ctx)
	for _, h := range hits {
		out = append(out, e.element(describe, h))
	}
	return out, nil
}

// element describes the retained reference ref and takes it into the
// enricher's keeping: Close releases it if the caller does not.
func (e *Enricher) element(ctx context.Context, ref uintptr) Element {
	role := stringAttr(ref, attrRole)
	el := Element{
		Role:   Role(SegmentRole(role, stringAttr(ref, attrSubrole))),
		Label:  labelOf(ref),
		AXPath: axpath.Format(pathOf(ctx, ref)),
	}
	var pid int32
	if axGetPid(ref, &pid) == axSuccess {
		el.PID = int(pid)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.sys == 0 { // closed meanwhile
		cocoa.CFRelease(ref)
		return el
	}
	el.h = &handle{e: e, ref: ref}
	e.live[el.h] = struct{}{}
	return el
}

// windows returns the windows titled title of every application with a
// normal window on screen (the focused window when title is ""), retained,
// for the caller to release. It stops asking applications when ctx ends.
func (e *Enricher) windows(ctx context.Context, sys uintptr, title string) ([]uintptr, error) {
	self := os.Getpid()
	if title == "" {
		app := copyAttr(sys, attrFocusedApp)
		if app == 0 {
			return nil, nil
		}
		defer cocoa.CFRelease(app)
		var pid int32
		if axGetPid(app, &pid) != axSuccess || int(pid) == self {
			return nil, nil
		}
		if w := copyAttr(app, attrFocusedWindow); w != 0 {
			return []uintptr{w}, nil
		}
		return nil, nil
	}
	list, err := cocoa.Windows()
	if err != nil {
		return nil, fmt.Errorf("axmac: list the applications on screen: %w", err)
	}
	var owners []int
	for _, w := range list {
		if w.Layer == 0 {
			owners = append(owners, w.OwnerPID)
		}
	}
	var out []uintptr
	for _, pid := range distinctPIDs(owners, self) {
		if ctx.Err() != nil {
			break
		}
		found := e.appWindows(pid, title)
		if len(found) > 0 {
			e.enableOnce(int32(pid))
		}
		out = append(out, found...)
	}
	return out, nil
}

// appWindows returns process pid's windows titled title, retained.
func (e *Enricher) appWindows(pid int, title string) []uintptr {
	app := axCreateApplication(int32(pid))
	if app == 0 {
		return nil
	}
	defer cocoa.CFRelease(app)
	axSetMessagingTimeout(app, float32(e.opts.Timeout.Seconds()))
	wins := copyAttr(app, attrWindows)
	if wins == 0 {
		return nil
	}
	defer cocoa.CFRelease(wins)
	if cocoa.CFGetTypeID(wins) != cocoa.CFArrayGetTypeID() {
		return nil
	}
	var out []uintptr
	for i := range cocoa.CFArrayGetCount(wins) {
		w := cocoa.CFArrayGetValueAtIndex(wins, i)
		if w != 0 && stringAttr(w, attrTitle) == title {
			out = append(out, cocoa.CFRetain(w))
		}
	}
	return out
}

// findIn walks win's subtree and returns the matches, each retained for
// the caller; on an error it returns the matches so far for the caller to
// release.
func findIn(ctx context.Context, win uintptr, role, label string) ([]uintptr, error) {
	var arrays []uintptr // children lists, kept until the walk ends: they hold the elements on the stack
	defer func() {
		for _, a := range arrays {
			cocoa.CFRelease(a)
		}
	}()
	elementType := axElementGetTypeID()
	children := func(el uintptr) []uintptr {
		kids := copyAttr(el, attrChildren)
		if kids == 0 {
			return nil
		}
		if cocoa.CFGetTypeID(kids) != cocoa.CFArrayGetTypeID() {
			cocoa.CFRelease(kids)
			return nil
		}
		arrays = append(arrays, kids)
		n := cocoa.CFArrayGetCount(kids)
		out := make([]uintptr, 0, n)
		for i := range n {
			if k := cocoa.CFArrayGetValueAtIndex(kids, i); k != 0 && cocoa.CFGetTypeID(k) == elementType {
				out = append(out, k)
			}
		}
		return out
	}
	match := func(el uintptr) bool {
		r := stringAttr(el, attrRole)
		if r == "" {
			return false
		}
		sub := ""
		if r == "AXTextField" { // only a text field's subrole changes its role
			sub = stringAttr(el, attrSubrole)
		}
		if !roleMatches(r, sub, role) {
			return false
		}
		return label == "" || labelOf(el) == label
	}
	found, err := search(ctx, win, children, match, maxFindScan, maxFindDepth)
	for i, f := range found {
		found[i] = cocoa.CFRetain(f)
	}
	return found, err
}

// refuseSecure returns ErrSecureField when ref is a secure text field,
// asking the element itself rather than trusting what Find saw, and an
// error when it cannot tell.
func refuseSecure(ref uintptr, el Element) error {
	r := stringAttr(ref, attrRole)
	if r == "" {
		return fmt.Errorf("axmac: the %s %q has no role now: gone, or the application is not answering", el.Role, el.Label)
	}
	if isSecure(r, stringAttr(ref, attrSubrole)) {
		return ErrSecureField
	}
	return nil
}

// Press presses el (AXPress): a button, a check box, a link, a menu item.
func (e *Enricher) Press(_ context.Context, el Element) error {
	ref, err := e.retain(el)
	if err != nil {
		return err
	}
	defer cocoa.CFRelease(ref)
	if rc := axPerformAction(ref, actionPress); rc != axSuccess {
		return fmt.Errorf("axmac: press the %s %q: %w", el.Role, el.Label, AXError(rc))
	}
	return nil
}

// SetValue gives el the focus and sets its AXValue to text, as a person's
// typing would leave it. It refuses a secure text field (ErrSecureField).
func (e *Enricher) SetValue(_ context.Context, el Element, text string) error {
	if strings.IndexByte(text, 0) >= 0 {
		return fmt.Errorf("axmac: set the value of the %s %q: the text holds a NUL byte", el.Role, el.Label)
	}
	ref, err := e.retain(el)
	if err != nil {
		return err
	}
	defer cocoa.CFRelease(ref)
	if err := refuseSecure(ref, el); err != nil {
		return err
	}
	s := cocoa.CFStringCreateWithCString(0, text, cocoa.KCFStringEncodingUTF8)
	if s == 0 {
		return fmt.Errorf("axmac: set the value of the %s %q: CFStringCreateWithCString failed", el.Role, el.Label)
	}
	defer cocoa.CFRelease(s)
	_ = axSetAttributeValue(ref, attrFocused, cocoa.KCFBooleanTrue) // some fields commit a value only with the focus
	if rc := axSetAttributeValue(ref, attrValue, s); rc != axSuccess {
		return fmt.Errorf("axmac: set the value of the %s %q: %w", el.Role, el.Label, AXError(rc))
	}
	return nil
}

// Value returns el's AXValue when it is text, for replay to read a field
// back. It refuses a secure text field (ErrSecureField).
func (e *Enricher) Value(_ context.Context, el Element) (string, error) {
	ref, err := e.retain(el)
	if err != nil {
		return "", err
	}
	defer cocoa.CFRelease(ref)
	if err := refuseSecure(ref, el); err != nil {
		return "", err
	}
	var v uintptr
	if rc := axCopyAttributeValue(ref, attrValue, &v); rc != axSuccess {
		return "", fmt.Errorf("axmac: read the value of the %s %q: %w", el.Role, el.Label, AXError(rc))
	}
	if v == 0 {
		return "", nil
	}
	defer cocoa.CFRelease(v)
	s, ok := goString(v)
	if !ok {
		return "", fmt.Errorf("axmac: the value of the %s %q is not text", el.Role, el.Label)
	}
	return s, nil
}
