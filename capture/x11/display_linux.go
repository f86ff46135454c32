package x11

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/platform/keys"
)

// desktop is the normal (xgb) connection: it knows the keyboard mapping,
// which window is active, and what a window is called. Only the emitting
// goroutine resolves events; the watch goroutine updates what PropertyNotify
// and MappingNotify tell.
type xdisplay struct {
	c      *xgb.Conn
	root   xproto.Window
	atoms  atoms
	keymap atomic.Pointer[keys.Keymap]
	active atomic.Uint32
	apps   map[xproto.Window]string // the app of a window never changes
}

type atoms struct {
	activeWindow, wmName, utf8, pid, wmState xproto.Atom
}

// connect opens the xgb connection to d.
func connect(d string) (*xgb.Conn, error) {
	if d == "" {
		return nil, fmt.Errorf("no X display: DISPLAY is not set")
	}
	c, err := xgb.NewConnDisplay(d)
	if err != nil {
		return nil, fmt.Errorf("connect to X display %s: %w", d, err)
	}
	return c, nil
}

// missingExtensions names the extensions recording needs that the server
// lacks.
func missingExtensions(c *xgb.Conn) ([]string, error) {
	var missing []string
	for _, name := range []string{"RECORD", "XTEST"} {
		r, err := xproto.QueryExtension(c, uint16(len(name)), name).Reply()
		if err != nil {
			return nil, fmt.Errorf("query X extension %s: %w", name, err)
		}
		if !r.Present {
			missing = append(missing, name)
		}
	}
	return missing, nil
}

func newDisplay(c *xgb.Conn) (*xdisplay, error) {
	d := &xdisplay{c: c, root: xproto.Setup(c).DefaultScreen(c).Root, apps: map[xproto.Window]string{}}
	for name, a := range map[string]*xproto.Atom{
		"_NET_ACTIVE_WINDOW": &d.atoms.activeWindow, "_NET_WM_NAME": &d.atoms.wmName,
		"UTF8_STRING": &d.atoms.utf8, "_NET_WM_PID": &d.atoms.pid, "WM_STATE": &d.atoms.wmState,
	} {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			return nil, fmt.Errorf("intern X atom %s: %w", name, err)
		}
		*a = r.Atom
	}
	if err := d.loadKeymap(); err != nil {
		return nil, err
	}
	// _NET_ACTIVE_WINDOW changes after the press that caused it: follow it
	// on the root rather than asking at each event.
	err := xproto.ChangeWindowAttributesChecked(c, d.root, xproto.CwEventMask,
		[]uint32{xproto.EventMaskPropertyChange}).Check()
	if err != nil {
		return nil, fmt.Errorf("watch the X root window: %w", err)
	}
	d.active.Store(uint32(d.activeWindow()))
	return d, nil
}

func (d *xdisplay) loadKeymap() error {
	setup := xproto.Setup(d.c)
	count := int(setup.MaxKeycode) - int(setup.MinKeycode) + 1
	r, err := xproto.GetKeyboardMapping(d.c, setup.MinKeycode, byte(count)).Reply()
	if err != nil {
		return fmt.Errorf("get X keyboard mapping: %w", err)
	}
	m := &keys.Keymap{Min: byte(setup.MinKeycode), PerCode: int(r.KeysymsPerKeycode), Syms: make([]keys.Keysym, len(r.Keysyms))}
	for i, k := range r.Keysyms {
		m.Syms[i] = keys.Keysym(k)
	}
	d.keymap.Store(m)
	return nil
}

// watch follows the active window and the keyboard mapping until the
// connection closes.
func (d *xdisplay) watch() {
	for {
		ev, err := d.c.WaitForEvent()
		if ev == nil && err == nil {
			return // closed
		}
		switch e := ev.(type) {
		case xproto.PropertyNotifyEvent:
			if e.Window == d.root && e.Atom == d.atoms.activeWindow {
				d.active.Store(uint32(d.activeWindow()))
			}
		case xproto.MappingNotifyEvent:
			if e.Request == xproto.MappingKeyboard {
				_ = d.loadKeymap() // keep the old map if this fails
			}
		}
	}
}

// activeWindow reads _NET_ACTIVE_WINDOW; without a window manager that
// sets it, the input focus.
func (d *xdisplay) activeWindow() xproto.Window {
	if v := d.prop(d.root, d.atoms.activeWindow, xproto.AtomWindow); len(v) >= 4 {
		if w := xproto.Window(xgb.Get32(v)); w != 0 {
			return w
		}
	}
	f, err := xproto.GetInputFocus(d.c).Reply()
	if err != nil || f.Focus <= xproto.InputFocusPointerRoot {
		return 0
	}
	return f.Focus
}

// resolve fills in an event's keysyms and window: for a press, the client
// window under the pointer; for a key, the active window.
func (d *xdisplay) resolve(r *desktop.Raw) {
	switch r.Kind {
	case desktop.KeyPress, desktop.KeyRelease:
		r.Sym, r.Shifted = d.keymap.Load().Lookup(r.Keycode)
		if r.Kind == desktop.KeyPress {
			r.Window = d.info(xproto.Window(d.active.Load()))
		}
	case desktop.ButtonPress:
		w := d.clientAt(r.X, r.Y)
		if w != 0 {
			// The window manager will make it active; until its
			// PropertyNotify arrives, keys go there.
			d.active.Store(uint32(w))
		}
		r.Window = d.info(w)
	}
}

// clientAt finds the application window at a root point: the top-level
// window there, or the client a window manager framed inside it.
func (d *xdisplay) clientAt(x, y int) xproto.Window {
	t, err := xproto.TranslateCoordinates(d.c, d.root, d.root, int16(x), int16(y)).Reply()
	if err != nil || t.Child == 0 {
		return 0
	}
	if c := d.findClient(t.Child, 3); c != 0 {
		return c
	}
	return t.Child
}

func (d *xdisplay) findClient(w xproto.Window, depth int) xproto.Window {
	if d.prop(w, d.atoms.wmState, xproto.AtomAny) != nil {
		return w
	}
	if depth == 0 {
		return 0
	}
	tree, err := xproto.QueryTree(d.c, w).Reply()
	if err != nil {
		return 0
	}
	for i := len(tree.Children) - 1; i >= 0; i-- { // topmost first
		if c := d.findClient(tree.Children[i], depth-1); c != 0 {
			return c
		}
	}
	return 0
}

// info names a window: its title, and its app from WM_CLASS or, failing
// that, its process.
func (d *xdisplay) info(w xproto.Window) desktop.Window {
	if w == 0 || w == d.root {
		return desktop.Window{}
	}
	title := string(d.prop(w, d.atoms.wmName, d.atoms.utf8))
	if title == "" {
		title = string(d.prop(w, xproto.AtomWmName, xproto.AtomAny))
	}
	app, ok := d.apps[w]
	if !ok {
		app = d.app(w)
		if len(d.apps) > 4096 {
			clear(d.apps) // windows come and go; ids are reused
		}
		d.apps[w] = app
	}
	return desktop.Window{ID: uint32(w), App: app, Title: title}
}

func (d *xdisplay) app(w xproto.Window) string {
	// WM_CLASS is "instance\0Class\0"; the class names the application.
	parts := bytes.Split(bytes.TrimRight(d.prop(w, xproto.AtomWmClass, xproto.AtomString), "\x00"), []byte{0})
	if len(parts) == 2 && len(parts[1]) > 0 {
		return string(parts[1])
	}
	if v := d.prop(w, d.atoms.pid, xproto.AtomCardinal); len(v) >= 4 {
		comm, err := os.ReadFile("/proc/" + strconv.FormatUint(uint64(xgb.Get32(v)), 10) + "/comm")
		if err == nil {
			return strings.TrimSpace(string(comm))
		}
	}
	if len(parts) > 0 {
		return string(parts[0])
	}
	return ""
}

// prop reads up to 4 KiB of a window property; nil when it is missing.
func (d *xdisplay) prop(w xproto.Window, atom, typ xproto.Atom) []byte {
	r, err := xproto.GetProperty(d.c, false, w, atom, typ, 0, 1024).Reply()
	if err != nil || r.Format == 0 {
		return nil
	}
	return r.Value
}
