package quartz

import (
	"time"
	"unicode"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/platform/keys"
	"github.com/reprise-dev/reprise/platform/keys/mackey"
)

// EventKind is what a tapped event is.
type EventKind uint8

// Tapped event kinds.
const (
	MouseDown EventKind = iota + 1
	KeyDown
)

// Event is one tapped Quartz event as the callback stamps it: nothing in it
// needs more than a field read, so that the callback returns at once.
type Event struct {
	Kind   EventKind
	Button int // 1 left, 2 middle, 3 right (X's numbering)
	// Keycode, Flags and Text describe a key-down: the virtual key, the
	// modifier flags (CGEventFlags) and what the layout typed with them
	// (CGEventKeyboardGetUnicodeString), empty for a dead key.
	Keycode mackey.Keycode
	Flags   uint64
	Text    string
	X, Y    int // global display coordinates, origin top left of the main display
	Time    time.Time
	// PID is the process the event goes to (kCGEventTargetUnixProcessID)
	// and WindowID the window under a mouse event, 0 when unknown.
	PID      int
	WindowID uint32
}

// Translator turns tapped Quartz events into the raw X-shaped events
// capture/x11's Assembler assembles, so that macOS and Linux make the same steps.
// It is not safe for concurrent use.
//
// The tap sees key-downs, not modifier presses, so the Translator derives
// the held modifiers from each event's flags and emits synthetic modifier
// presses and releases whenever they change. The mapping follows what the
// keys mean rather than their names:
//   - Command is Ctrl: cmd+c is copy, cmd+v paste, cmd+s the chord "ctrl+s",
//     as on the other systems (replay maps ctrl back to Command on macOS);
//   - Control is Super ("super+a");
//   - Option is Alt when it makes a chord (with Command or Control, with a
//     key that types no character such as F4 or an arrow, with a click),
//     and otherwise, like AltGr, it only chooses the character typed; an
//     option+letter that types nothing is a dead key and makes no event.
//
// Typed characters are what the layout typed (Text), so any layout and
// Caps Lock work; chords are named by the letter the layout typed when it
// is one, else by the US ANSI key (cmd+shift+1 is "ctrl+shift+1").
type Translator struct {
	mods uint8 // modifier bits last reported to the assembler
	out  []desktop.Raw
}

const (
	bitShift uint8 = 1 << iota
	bitCtrl
	bitAlt
	bitSuper
)

var modSyms = [...]struct {
	bit uint8
	sym keys.Keysym
}{{bitShift, keys.KeyShiftL}, {bitCtrl, keys.KeyControlL}, {bitAlt, keys.KeyAltL}, {bitSuper, keys.KeySuperL}}

// Translate returns the raw events for e, oldest first; the slice is reused
// by the next call. Modifier keys themselves, the Fn key and dead keys make
// no key event.
func (t *Translator) Translate(e Event) []desktop.Raw {
	t.out = t.out[:0]
	win := desktop.Window{ID: e.WindowID}
	switch e.Kind {
	case MouseDown:
		t.sync(chordBits(e.Flags, true), e)
		t.out = append(t.out, desktop.Raw{Kind: desktop.ButtonPress, Button: e.Button, X: e.X, Y: e.Y, Time: e.Time, Window: win})
	case KeyDown:
		r, ok := t.key(e)
		if !ok {
			return t.out
		}
		r.X, r.Y, r.Time, r.Window = e.X, e.Y, e.Time, win
		t.out = append(t.out, r)
	}
	return t.out
}

// key builds the key event and syncs the modifiers it is pressed with.
func (t *Translator) key(e Event) (desktop.Raw, bool) {
	if named, ok := mackey.NamedKeysym(e.Keycode); ok {
		if isModifierKey(e.Keycode) || named == 0xff7f {
			return desktop.Raw{}, false // modifiers arrive as flags
		}
		t.sync(chordBits(e.Flags, true), e)
		return desktop.Raw{Kind: desktop.KeyPress, Sym: named}, true
	}
	if e.Keycode == mackey.VKFunction {
		return desktop.Raw{}, false
	}
	ch, printable := single(e.Text)
	chord := e.Flags&(mackey.FlagCommand|mackey.FlagControl) != 0
	bits := chordBits(e.Flags, chord)
	t.sync(bits, e)
	if chord {
		plain, _, known := mackey.BaseKeysyms(e.Keycode)
		switch {
		case printable && unicode.IsLetter(ch):
			plain = mackey.KeysymOfRune(unicode.ToLower(ch))
		case !known && printable:
			plain = mackey.KeysymOfRune(ch)
		case !known:
			return desktop.Raw{}, false
		}
		return desktop.Raw{Kind: desktop.KeyPress, Sym: plain}, true
	}
	if !printable {
		return desktop.Raw{}, false // a dead key, or a key that types a control character
	}
	s := mackey.KeysymOfRune(ch)
	return desktop.Raw{Kind: desktop.KeyPress, Sym: s, Shifted: s}, true
}

// sync emits the modifier presses and releases that take the assembler from
// what it was told to want.
func (t *Translator) sync(want uint8, e Event) {
	for _, m := range modSyms {
		switch {
		case want&m.bit != 0 && t.mods&m.bit == 0:
			t.out = append(t.out, desktop.Raw{Kind: desktop.KeyPress, Sym: m.sym, X: e.X, Y: e.Y, Time: e.Time})
		case want&m.bit == 0 && t.mods&m.bit != 0:
			t.out = append(t.out, desktop.Raw{Kind: desktop.KeyRelease, Sym: m.sym, X: e.X, Y: e.Y, Time: e.Time})
		}
	}
	t.mods = want
}

// chordBits are the assembler's modifiers for flags; Option counts only when
// withAlt.
func chordBits(flags uint64, withAlt bool) uint8 {
	var b uint8
	if flags&mackey.FlagShift != 0 {
		b |= bitShift
	}
	if flags&mackey.FlagCommand != 0 {
		b |= bitCtrl
	}
	if flags&mackey.FlagControl != 0 {
		b |= bitSuper
	}
	if withAlt && flags&mackey.FlagOption != 0 {
		b |= bitAlt
	}
	return b
}

func isModifierKey(k mackey.Keycode) bool {
	return k >= mackey.VKRightCommand && k <= mackey.VKFunction
}

// single returns the one printable character text holds.
func single(text string) (rune, bool) {
	rs := []rune(text)
	if len(rs) != 1 || !unicode.IsPrint(rs[0]) {
		return 0, false
	}
	return rs[0], true
}
