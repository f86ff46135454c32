package input

import (
	"fmt"
	"io"
	"log"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/reprise-dev/reprise/platform/keys"
)

// X event types XTEST fakes.
const (
	xKeyPress      = 2
	xKeyRelease    = 3
	xButtonPress   = 4
	xButtonRelease = 5
	xMotionNotify  = 6
)

var _ Mouse = (*xinput)(nil)

// xinput is Input through the XTEST extension.
type xinput struct {
	conn  *xgb.Conn
	root  xproto.Window
	codes map[uint32]keycode // keysym -> how to type it
	idle  bool               // MIT-SCREEN-SAVER is there to tell idle time
	// spare is a keycode no key uses: a character the keyboard has no key
	// for is typed by mapping it there for a moment, as xdotool does.
	spare  xproto.Keycode
	mapped uint32 // the keysym on spare now
	per    byte
}

type keycode struct {
	code  xproto.Keycode
	shift bool
}

// NewX11 connects to display ("" for $DISPLAY) and readies XTEST.
func NewX11(display string) (Input, error) {
	xgb.Logger = log.New(io.Discard, "", 0)
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("connect to the X server: %w", err)
	}
	if err := xtest.Init(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("the X server has no XTEST extension: %w", err)
	}
	x := &xinput{conn: conn, root: xproto.Setup(conn).DefaultScreen(conn).Root, codes: map[uint32]keycode{}}
	x.idle = screensaver.Init(conn) == nil
	if err := x.loadKeymap(); err != nil {
		conn.Close()
		return nil, err
	}
	return x, nil
}

// loadKeymap learns which keycode (and whether Shift) types each keysym.
func (x *xinput) loadKeymap() error {
	setup := xproto.Setup(x.conn)
	first, n := setup.MinKeycode, byte(setup.MaxKeycode-setup.MinKeycode+1)
	m, err := xproto.GetKeyboardMapping(x.conn, first, n).Reply()
	if err != nil {
		return fmt.Errorf("read the keyboard map: %w", err)
	}
	per := int(m.KeysymsPerKeycode)
	x.per = m.KeysymsPerKeycode
	for i := int(n) - 1; i >= 0 && x.spare == 0; i-- {
		empty := true
		for level := 0; level < per; level++ {
			empty = empty && m.Keysyms[i*per+level] == 0
		}
		if empty {
			x.spare = xproto.Keycode(int(first) + i)
		}
	}
	for i := 0; i < int(n); i++ {
		for level := 0; level < min(per, 2); level++ {
			sym := uint32(m.Keysyms[i*per+level])
			if _, seen := x.codes[sym]; sym != 0 && !seen {
				x.codes[sym] = keycode{code: xproto.Keycode(int(first) + i), shift: level == 1}
			}
		}
	}
	return nil
}

func (x *xinput) fake(typ byte, detail byte, rx, ry int16) {
	xtest.FakeInput(x.conn, typ, detail, 0, x.root, rx, ry, 0)
}

// sync waits until the server has handled what was sent.
func (x *xinput) sync() error {
	_, err := xproto.GetInputFocus(x.conn).Reply()
	return err
}

func (x *xinput) Click(px, py, button int) error {
	x.fake(xMotionNotify, 0, int16(px), int16(py))
	x.fake(xButtonPress, byte(button), 0, 0)
	x.fake(xButtonRelease, byte(button), 0, 0)
	return x.sync()
}

func (x *xinput) Move(px, py int) error {
	x.fake(xMotionNotify, 0, int16(px), int16(py))
	return x.sync()
}

func (x *xinput) Button(button int, down bool) error {
	typ := byte(xButtonRelease)
	if down {
		typ = xButtonPress
	}
	x.fake(typ, byte(button), 0, 0)
	return x.sync()
}

// Scroll turns the wheel: X11 has no wheel events, only buttons 4 and 5
// (up, down) and 6 and 7 (left, right), one click a notch.
func (x *xinput) Scroll(dx, dy int) error {
	turn := func(n int, neg, pos byte) {
		b := pos
		if n < 0 {
			b, n = neg, -n
		}
		for range n {
			x.fake(xButtonPress, b, 0, 0)
			x.fake(xButtonRelease, b, 0, 0)
		}
	}
	turn(dy, 4, 5)
	turn(dx, 6, 7)
	return x.sync()
}

func (x *xinput) key(sym uint32, down bool) error {
	k, ok := x.codes[sym]
	if !ok {
		var err error
		if k, err = x.remap(sym); err != nil {
			return err
		}
	}
	shift := x.codes[0xffe1]
	if down {
		if k.shift {
			x.fake(xKeyPress, byte(shift.code), 0, 0)
		}
		x.fake(xKeyPress, byte(k.code), 0, 0)
		return nil
	}
	x.fake(xKeyRelease, byte(k.code), 0, 0)
	if k.shift {
		x.fake(xKeyRelease, byte(shift.code), 0, 0)
	}
	return nil
}

// remap maps sym onto the spare keycode for the key press to come.
func (x *xinput) remap(sym uint32) (keycode, error) {
	if x.spare != 0 && x.mapped == sym {
		return keycode{code: x.spare}, nil
	}
	if x.spare == 0 {
		return keycode{}, fmt.Errorf("no key on this keyboard types keysym %#x, and no spare keycode to map it to", sym)
	}
	syms := make([]xproto.Keysym, x.per)
	for i := range syms {
		syms[i] = xproto.Keysym(sym)
	}
	if err := xproto.ChangeKeyboardMappingChecked(x.conn, 1, x.spare, x.per, syms).Check(); err != nil {
		return keycode{}, fmt.Errorf("map keysym %#x: %w", sym, err)
	}
	// Clients reload their keymap on the MappingNotify this causes.
	time.Sleep(30 * time.Millisecond)
	x.mapped = sym
	return keycode{code: x.spare}, nil
}

func (x *xinput) Type(text string) error {
	for _, r := range text {
		sym := keys.KeysymFor(r)
		if err := x.key(sym, true); err != nil {
			return fmt.Errorf("type character %d of the value: %w", r, err)
		}
		if err := x.key(sym, false); err != nil {
			return err
		}
	}
	return x.sync()
}

func (x *xinput) Press(c keys.Chord) error {
	for _, m := range c.Modifiers {
		if err := x.key(m, true); err != nil {
			return err
		}
	}
	err := x.key(c.Key, true)
	if err == nil {
		err = x.key(c.Key, false)
	}
	for i := len(c.Modifiers) - 1; i >= 0; i-- {
		_ = x.key(c.Modifiers[i], false)
	}
	if err != nil {
		return err
	}
	return x.sync()
}

func (x *xinput) Idle() (time.Duration, error) {
	if !x.idle {
		return 0, fmt.Errorf("the X server has no MIT-SCREEN-SAVER extension to tell idle time")
	}
	r, err := screensaver.QueryInfo(x.conn, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return 0, err
	}
	return time.Duration(r.MsSinceUserInput) * time.Millisecond, nil
}

func (x *xinput) Close() error {
	x.conn.Close()
	return nil
}

// Activate asks the window manager (EWMH) to activate the window titled
// title and waits until it has.
func (x *xinput) Activate(title string) error {
	win, err := x.windowNamed(title)
	if err != nil {
		return err
	}
	active := x.atom("_NET_ACTIVE_WINDOW")
	ev := xproto.ClientMessageEvent{Format: 32, Window: win, Type: active,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{2, 0, 0, 0, 0})} // 2: a pager, for the person
	mask := uint32(xproto.EventMaskSubstructureRedirect | xproto.EventMaskSubstructureNotify)
	if err := xproto.SendEventChecked(x.conn, false, x.root, mask, string(ev.Bytes())).Check(); err != nil {
		return fmt.Errorf("activate %q: %w", title, err)
	}
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		r, err := xproto.GetProperty(x.conn, false, x.root, active, xproto.AtomWindow, 0, 1).Reply()
		if err == nil && len(r.Value) >= 4 && xproto.Window(xgb.Get32(r.Value)) == win {
			return nil
		}
	}
	return fmt.Errorf("the window manager did not activate %q", title)
}

// windowNamed finds a managed top-level window by its title.
func (x *xinput) windowNamed(title string) (xproto.Window, error) {
	r, err := xproto.GetProperty(x.conn, false, x.root, x.atom("_NET_CLIENT_LIST"), xproto.AtomWindow, 0, 1024).Reply()
	if err != nil {
		return 0, fmt.Errorf("list windows: %w", err)
	}
	name, utf8 := x.atom("_NET_WM_NAME"), x.atom("UTF8_STRING")
	for i := 0; i+4 <= len(r.Value); i += 4 {
		w := xproto.Window(xgb.Get32(r.Value[i:]))
		p, err := xproto.GetProperty(x.conn, false, w, name, utf8, 0, 256).Reply()
		if err == nil && string(p.Value) == title {
			return w, nil
		}
	}
	return 0, fmt.Errorf("no window titled %q is open", title)
}

func (x *xinput) atom(name string) xproto.Atom {
	r, err := xproto.InternAtom(x.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0
	}
	return r.Atom
}
