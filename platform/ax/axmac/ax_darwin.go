package axmac

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/ebitengine/purego"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
	"github.com/reprise-dev/reprise/platform/cocoa"
)

const (
	pathAppServices = "/System/Library/Frameworks/ApplicationServices.framework/ApplicationServices"
	axSuccess       = 0
	maxDepth        = 64
)

var (
	axCreateSystemWide          func() uintptr
	axElementGetTypeID          func() uint
	axCreateApplication         func(pid int32) uintptr
	axCopyElementAtPosition     func(app uintptr, x, y float32, out *uintptr) int32
	axCopyAttributeValue        func(el, attr uintptr, out *uintptr) int32
	axSetAttributeValue         func(el, attr, value uintptr) int32
	axGetPid                    func(el uintptr, pid *int32) int32
	axPerformAction             func(el, action uintptr) int32
	axSetMessagingTimeout       func(el uintptr, seconds float32) int32
	axIsProcessTrusted          func() bool
	axIsProcessTrustedWithOpts  func(options uintptr) bool
	kAXTrustedCheckOptionPrompt uintptr
)

// Attribute and action names, created once and kept.
var attrRole, attrSubrole, attrTitle, attrDescription, attrIdentifier, attrParent,
	attrTitleUIElement, attrChildren, attrPlaceholder, attrValue, attrManual,
	attrWindows, attrFocusedApp, attrFocusedWindow, attrFocused, actionRaise, actionPress uintptr

// attrNamed holds the attribute names above by their text, for pickLabel.
var attrNamed = map[string]uintptr{}

var loaded cocoa.Once

// load opens the frameworks and binds every symbol, once.
func load() error { return loaded.Do("axmac", bind) }

func bind() error {
	if err := cocoa.Load(); err != nil {
		return err
	}
	as, err := cocoa.Open(pathAppServices)
	if err != nil {
		return err
	}
	purego.RegisterLibFunc(&axCreateSystemWide, as, "AXUIElementCreateSystemWide")
	purego.RegisterLibFunc(&axElementGetTypeID, as, "AXUIElementGetTypeID")
	purego.RegisterLibFunc(&axCreateApplication, as, "AXUIElementCreateApplication")
	purego.RegisterLibFunc(&axCopyElementAtPosition, as, "AXUIElementCopyElementAtPosition")
	purego.RegisterLibFunc(&axCopyAttributeValue, as, "AXUIElementCopyAttributeValue")
	purego.RegisterLibFunc(&axSetAttributeValue, as, "AXUIElementSetAttributeValue")
	purego.RegisterLibFunc(&axGetPid, as, "AXUIElementGetPid")
	purego.RegisterLibFunc(&axPerformAction, as, "AXUIElementPerformAction")
	purego.RegisterLibFunc(&axSetMessagingTimeout, as, "AXUIElementSetMessagingTimeout")
	purego.RegisterLibFunc(&axIsProcessTrusted, as, "AXIsProcessTrusted")
	purego.RegisterLibFunc(&axIsProcessTrustedWithOpts, as, "AXIsProcessTrustedWithOptions")
	if kAXTrustedCheckOptionPrompt, err = cocoa.DataSymbol(as, "kAXTrustedCheckOptionPrompt"); err != nil {
		return err
	}
	for _, a := range []struct {
		dst  *uintptr
		name string
	}{
		{&attrRole, "AXRole"}, {&attrSubrole, "AXSubrole"}, {&attrTitle, "AXTitle"},
		{&attrDescription, "AXDescription"}, {&attrIdentifier, "AXIdentifier"}, {&attrParent, "AXParent"},
		{&attrTitleUIElement, "AXTitleUIElement"}, {&attrChildren, "AXChildren"},
		{&attrPlaceholder, "AXPlaceholderValue"}, {&attrValue, "AXValue"},
		{&attrManual, "AXManualAccessibility"}, {&attrWindows, "AXWindows"}, {&actionRaise, "AXRaise"},
		{&attrFocusedApp, "AXFocusedApplication"}, {&attrFocusedWindow, "AXFocusedWindow"},
		{&attrFocused, "AXFocused"}, {&actionPress, "AXPress"},
	} {
		if *a.dst = cocoa.CFStringCreateWithCString(0, a.name, cocoa.KCFStringEncodingUTF8); *a.dst == 0 {
			return fmt.Errorf("create %s", a.name)
		}
		attrNamed[a.name] = *a.dst
	}
	return nil
}

// IsTrusted reports whether this process may use the accessibility API
// (AXIsProcessTrusted).
func IsTrusted() bool {
	return load() == nil && axIsProcessTrusted()
}

// RequestTrust asks macOS to show its Accessibility prompt for this process
// when it is not trusted yet (AXIsProcessTrustedWithOptions with
// kAXTrustedCheckOptionPrompt); it reports whether the process is trusted
// now.
func RequestTrust() bool {
	if load() != nil {
		return false
	}
	key, val := kAXTrustedCheckOptionPrompt, cocoa.KCFBooleanTrue
	opts := cocoa.CFDictionaryCreate(0, &key, &val, 1, cocoa.KCFTypeDictionaryKeyCallBacks, cocoa.KCFTypeDictionaryValueCallBacks)
	if opts == 0 {
		return axIsProcessTrusted()
	}
	defer cocoa.CFRelease(opts)
	return axIsProcessTrustedWithOpts(opts)
}

// EnableTree asks process pid's application to build its accessibility
// tree (AXManualAccessibility = true), which Chromium and Electron apps do
// only when asked. Apps that do not know the attribute return an error.
func EnableTree(pid int) error {
	if err := load(); err != nil {
		return err
	}
	app := axCreateApplication(int32(pid))
	if app == 0 {
		return errors.New("axmac: no application element")
	}
	defer cocoa.CFRelease(app)
	if rc := axSetAttributeValue(app, attrManual, cocoa.KCFBooleanTrue); rc != axSuccess {
		return fmt.Errorf("axmac: set AXManualAccessibility: AXError %d", rc)
	}
	return nil
}

// RaiseWindow raises process pid's window titled title (AXRaise); the
// application itself is activated separately.
func RaiseWindow(pid int, title string) error {
	if err := load(); err != nil {
		return err
	}
	if !axIsProcessTrusted() {
		return ErrNotTrusted
	}
	app := axCreateApplication(int32(pid))
	if app == 0 {
		return errors.New("axmac: no application element")
	}
	defer cocoa.CFRelease(app)
	wins := copyAttr(app, attrWindows)
	if wins == 0 {
		return errors.New("axmac: the application lists no windows")
	}
	defer cocoa.CFRelease(wins)
	if cocoa.CFGetTypeID(wins) != cocoa.CFArrayGetTypeID() {
		return errors.New("axmac: AXWindows is not a list")
	}
	for i := range cocoa.CFArrayGetCount(wins) {
		w := cocoa.CFArrayGetValueAtIndex(wins, i)
		if stringAttr(w, attrTitle) == title {
			if rc := axPerformAction(w, actionRaise); rc != axSuccess {
				return fmt.Errorf("axmac: AXRaise: AXError %d", rc)
			}
			return nil
		}
	}
	return fmt.Errorf("axmac: no window titled %q", title)
}

// Options configure an Enricher.
type Options struct {
	// Timeout bounds one lookup; default 200 ms. It is also each AX
	// message's timeout, so a hung application cannot hold a lookup.
	Timeout time.Duration
	// Logger receives notes, never a field's text; nil discards them.
	Logger *slog.Logger
}

// Enricher answers At from the AX tree, and Find, Press, SetValue and
// Value for replay. It is safe for concurrent use.
type Enricher struct {
	opts Options

	mu      sync.Mutex
	sys     uintptr              // the system-wide element; 0 once closed
	enabled map[int32]bool       // processes asked for their tree
	live    map[*handle]struct{} // the elements Find returned, not released yet
}

// New checks that the API loads and the process is trusted.
func New(opts Options) (*Enricher, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 200 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if err := load(); err != nil {
		return nil, err
	}
	if !axIsProcessTrusted() {
		return nil, ErrNotTrusted
	}
	sys := axCreateSystemWide()
	if sys == 0 {
		return nil, errors.New("axmac: no system-wide element")
	}
	axSetMessagingTimeout(sys, float32(opts.Timeout.Seconds()))
	return &Enricher{opts: opts, sys: sys, enabled: make(map[int32]bool), live: make(map[*handle]struct{})}, nil
}

// Close releases the system-wide element and every element Find returned
// that was not released yet. Safe to call twice.
func (e *Enricher) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for h := range e.live {
		cocoa.CFRelease(h.ref)
		h.ref = 0
	}
	clear(e.live)
	if e.sys != 0 {
		cocoa.CFRelease(e.sys)
		e.sys = 0
	}
	return nil
}

// At returns what the AX tree knows about the element at screen point
// (x, y): kind "ax", reprise's role, a label and a path from its window. It
// returns nil and no error when nothing is there. A secure text field comes
// back as role "textbox"; IsPassword tells it apart.
func (e *Enricher) At(ctx context.Context, x, y int) (*events.Enrichment, error) {
	sys, err := e.system() // retained: a Close meanwhile cannot free it under the call
	if err != nil {
		return nil, err
	}
	defer cocoa.CFRelease(sys)
	var el uintptr
	if rc := axCopyElementAtPosition(sys, float32(x), float32(y), &el); rc != axSuccess || el == 0 {
		return nil, nil
	}
	defer cocoa.CFRelease(el)
	var pid int32
	if axGetPid(el, &pid) == axSuccess && pid > 0 {
		e.enableOnce(pid)
	}
	return enrichment(pathOf(ctx, el), labelOf(el)), nil
}

// pathOf returns the path segments from el's window down to el.
func pathOf(ctx context.Context, el uintptr) []axpath.Node {
	var owned []uintptr // the parents copied on the way up
	defer func() {
		for _, o := range owned {
			cocoa.CFRelease(o)
		}
	}()
	var nodes []axpath.Node // element first, reversed below
	cur := el
	for range maxDepth {
		if ctx.Err() != nil {
			break
		}
		role := stringAttr(cur, attrRole)
		if role == RoleApplication || role == "" {
			break
		}
		n := axpath.Node{Role: SegmentRole(role, stringAttr(cur, attrSubrole)), Name: nameOf(cur)}
		parent := copyAttr(cur, attrParent)
		if parent != 0 {
			owned = append(owned, parent)
			n.Ordinal = siblingOrdinal(parent, cur, n)
		}
		nodes = append(nodes, n)
		if parent == 0 || role == RoleWindow {
			break
		}
		cur = parent
	}
	slices.Reverse(nodes)
	return nodes
}

func (e *Enricher) enableOnce(pid int32) {
	e.mu.Lock()
	done := e.enabled[pid]
	e.enabled[pid] = true
	e.mu.Unlock()
	if !done {
		_ = EnableTree(int(pid)) // unsupported outside Chromium/Electron: fine
	}
}

// siblingOrdinal is el's position among parent's children sharing its role
// and name, or 0 when it is the only one.
func siblingOrdinal(parent, el uintptr, me axpath.Node) int {
	kids := copyAttr(parent, attrChildren)
	if kids == 0 {
		return 0
	}
	defer cocoa.CFRelease(kids)
	if cocoa.CFGetTypeID(kids) != cocoa.CFArrayGetTypeID() {
		return 0
	}
	n := cocoa.CFArrayGetCount(kids)
	if n > 256 {
		return 0 // a long list: not worth the round trips
	}
	sibs := make([]axpath.Node, 0, n)
	at := -1
	for i := range n {
		k := cocoa.CFArrayGetValueAtIndex(kids, i)
		if cocoa.CFEqual(k, el) {
			at = i
			sibs = append(sibs, me)
			continue
		}
		r := SegmentRole(stringAttr(k, attrRole), stringAttr(k, attrSubrole))
		if r != me.Role {
			sibs = append(sibs, axpath.Node{Role: r})
			continue
		}
		sibs = append(sibs, axpath.Node{Role: r, Name: nameOf(k)})
	}
	return axpath.Ordinal(sibs, at)
}

// nameOf is an element's name on a path: its title, description or
// identifier.
func nameOf(el uintptr) string {
	for _, a := range []uintptr{attrTitle, attrDescription, attrIdentifier} {
		if s := stringAttr(el, a); s != "" {
			return s
		}
	}
	return ""
}

// labelOf is what a person reads as the element's label (pickLabel's
// rules); never its value.
func labelOf(el uintptr) string {
	var title uintptr // the AXTitleUIElement, copied once when asked for
	asked := false
	defer func() {
		if title != 0 {
			cocoa.CFRelease(title)
		}
	}()
	return pickLabel(
		func(name string) string { return stringAttr(el, attrNamed[name]) },
		func(name string) string {
			if !asked {
				asked, title = true, copyAttr(el, attrTitleUIElement)
			}
			if title == 0 {
				return ""
			}
			return stringAttr(title, attrNamed[name])
		})
}

func copyAttr(el, attr uintptr) uintptr {
	var v uintptr
	if axCopyAttributeValue(el, attr, &v) != axSuccess {
		return 0
	}
	return v
}

func stringAttr(el, attr uintptr) string {
	v := copyAttr(el, attr)
	if v == 0 {
		return ""
	}
	defer cocoa.CFRelease(v)
	s, _ := goString(v)
	return s
}

// goString copies the CFString v; ok is false when v is no CFString.
func goString(v uintptr) (s string, ok bool) {
	if cocoa.CFGetTypeID(v) != cocoa.CFStringGetTypeID() {
		return "", false
	}
	n := cocoa.CFStringGetLength(v)
	if n == 0 {
		return "", true
	}
	size := cocoa.CFStringGetMaximumSizeForEncoding(n, cocoa.KCFStringEncodingUTF8) + 1
	buf := make([]byte, size)
	if !cocoa.CFStringGetCString(v, &buf[0], size, cocoa.KCFStringEncodingUTF8) {
		return "", false
	}
	for i, b := range buf {
		if b == 0 {
			return string(buf[:i]), true
		}
	}
	return string(buf), true
}
