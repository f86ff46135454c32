package mackey

import (
	"github.com/reprise-dev/reprise/platform/keys"
)

// Keycode is a macOS virtual key code (Carbon's kVK_* constants): the
// physical key, whatever the layout types with it.
type Keycode uint16

// The virtual key codes the mapping names (HIToolbox/Events.h).
const (
	VKReturn        Keycode = 0x24
	VKTab           Keycode = 0x30
	VKSpace         Keycode = 0x31
	VKDelete        Keycode = 0x33 // the key labelled delete: BackSpace
	VKEscape        Keycode = 0x35
	VKRightCommand  Keycode = 0x36
	VKCommand       Keycode = 0x37
	VKShift         Keycode = 0x38
	VKCapsLock      Keycode = 0x39
	VKOption        Keycode = 0x3A
	VKControl       Keycode = 0x3B
	VKRightShift    Keycode = 0x3C
	VKRightOption   Keycode = 0x3D
	VKRightControl  Keycode = 0x3E
	VKFunction      Keycode = 0x3F
	VKKeypadEnter   Keycode = 0x4C
	VKHelp          Keycode = 0x72 // where PC keyboards have Insert
	VKHome          Keycode = 0x73
	VKPageUp        Keycode = 0x74
	VKForwardDelete Keycode = 0x75
	VKEnd           Keycode = 0x77
	VKPageDown      Keycode = 0x79
	VKLeftArrow     Keycode = 0x7B
	VKRightArrow    Keycode = 0x7C
	VKDownArrow     Keycode = 0x7D
	VKUpArrow       Keycode = 0x7E
	VKF1            Keycode = 0x7A
)

// Event flags (CGEventFlags) the translation reads.
const (
	FlagAlphaShift uint64 = 0x00010000 // Caps Lock
	FlagShift      uint64 = 0x00020000
	FlagControl    uint64 = 0x00040000
	FlagOption     uint64 = 0x00080000
	FlagCommand    uint64 = 0x00100000
)

// namedKeys are the keys that type no character, as X keysyms.
var namedKeys = map[Keycode]keys.Keysym{
	VKReturn: keys.KeyReturn, VKTab: keys.KeyTab, VKDelete: keys.KeyBackSpace, VKEscape: keys.KeyEscape,
	VKKeypadEnter: keys.KeyKPEnter, VKHelp: keys.KeyInsert, VKHome: keys.KeyHome, VKEnd: keys.KeyEnd,
	VKPageUp: keys.KeyPageUp, VKPageDown: keys.KeyPageDown, VKForwardDelete: keys.KeyDelete,
	VKLeftArrow: keys.KeyLeft, VKRightArrow: keys.KeyRight, VKUpArrow: keys.KeyUp, VKDownArrow: keys.KeyDown,
	VKShift: keys.KeyShiftL, VKRightShift: keys.KeyShiftR, VKCapsLock: keys.KeyCapsLock,
	// Command plays the part Ctrl plays elsewhere (copy, paste, save), and
	// Control the part of Super: see Translator.
	VKCommand: keys.KeyControlL, VKRightCommand: keys.KeyControlR,
	VKControl: keys.KeySuperL, VKRightControl: keys.KeySuperR,
	VKOption: keys.KeyAltL, VKRightOption: keys.KeyAltR,
	0x47: 0xff7f, // keypad Clear sits where Num Lock does
	// F1..F20.
	VKF1: keys.KeyF1, 0x78: keys.KeyF1 + 1, 0x63: keys.KeyF1 + 2, 0x76: keys.KeyF1 + 3,
	0x60: keys.KeyF1 + 4, 0x61: keys.KeyF1 + 5, 0x62: keys.KeyF1 + 6, 0x64: keys.KeyF1 + 7,
	0x65: keys.KeyF1 + 8, 0x6D: keys.KeyF1 + 9, 0x67: keys.KeyF1 + 10, 0x6F: keys.KeyF1 + 11,
	0x69: keys.KeyF1 + 12, 0x6B: keys.KeyF1 + 13, 0x71: keys.KeyF1 + 14, 0x6A: keys.KeyF1 + 15,
	0x40: keys.KeyF1 + 16, 0x4F: keys.KeyF1 + 17, 0x50: keys.KeyF1 + 18, 0x5A: keys.KeyF1 + 19,
}

// usKeys are the character keys of the US ANSI layout: what each types
// without and with Shift. Chords are named from it (layouts move letters,
// see Translator), and replay types chords with it.
var usKeys = map[Keycode][2]rune{
	0x00: {'a', 'A'}, 0x01: {'s', 'S'}, 0x02: {'d', 'D'}, 0x03: {'f', 'F'}, 0x04: {'h', 'H'},
	0x05: {'g', 'G'}, 0x06: {'z', 'Z'}, 0x07: {'x', 'X'}, 0x08: {'c', 'C'}, 0x09: {'v', 'V'},
	0x0B: {'b', 'B'}, 0x0C: {'q', 'Q'}, 0x0D: {'w', 'W'}, 0x0E: {'e', 'E'}, 0x0F: {'r', 'R'},
	0x10: {'y', 'Y'}, 0x11: {'t', 'T'}, 0x12: {'1', '!'}, 0x13: {'2', '@'}, 0x14: {'3', '#'},
	0x15: {'4', '$'}, 0x16: {'6', '^'}, 0x17: {'5', '%'}, 0x18: {'=', '+'}, 0x19: {'9', '('},
	0x1A: {'7', '&'}, 0x1B: {'-', '_'}, 0x1C: {'8', '*'}, 0x1D: {'0', ')'}, 0x1E: {']', '}'},
	0x1F: {'o', 'O'}, 0x20: {'u', 'U'}, 0x21: {'[', '{'}, 0x22: {'i', 'I'}, 0x23: {'p', 'P'},
	0x25: {'l', 'L'}, 0x26: {'j', 'J'}, 0x27: {'\'', '"'}, 0x28: {'k', 'K'}, 0x29: {';', ':'},
	0x2A: {'\\', '|'}, 0x2B: {',', '<'}, 0x2C: {'/', '?'}, 0x2D: {'n', 'N'}, 0x2E: {'m', 'M'},
	0x2F: {'.', '>'}, 0x32: {'`', '~'}, VKSpace: {' ', ' '},
}

// keypadKeys are the keypad's character keys, as X's KP_ keysyms.
var keypadKeys = map[Keycode]keys.Keysym{
	0x52: 0xffb0, 0x53: 0xffb1, 0x54: 0xffb2, 0x55: 0xffb3, 0x56: 0xffb4,
	0x57: 0xffb5, 0x58: 0xffb6, 0x59: 0xffb7, 0x5B: 0xffb8, 0x5C: 0xffb9,
	0x41: 0xffae, 0x43: 0xffaa, 0x45: 0xffab, 0x4E: 0xffad, 0x4B: 0xffaf, 0x51: 0xffbd,
}

// KeysymOfRune is the X keysym that stands for r: Latin-1 code points are
// their own keysyms, the rest 0x01000000 + the code point.
func KeysymOfRune(r rune) keys.Keysym {
	if (r >= 0x20 && r <= 0x7e) || (r >= 0xa0 && r <= 0xff) {
		return keys.Keysym(r)
	}
	return 0x01000000 + keys.Keysym(r)
}

// NamedKeysym returns the keysym of a key that types no character (Return,
// an arrow, F5, a modifier), with Command as Control_L and Control as
// Super_L.
func NamedKeysym(k Keycode) (keys.Keysym, bool) {
	s, ok := namedKeys[k]
	return s, ok
}

// BaseKeysyms returns what key k types on a US ANSI layout without and
// with Shift, as keysyms (keypad keys: their KP_ keysym twice).
func BaseKeysyms(k Keycode) (plain, shifted keys.Keysym, ok bool) {
	if r, ok := usKeys[k]; ok {
		return KeysymOfRune(r[0]), KeysymOfRune(r[1]), true
	}
	if s, ok := keypadKeys[k]; ok {
		return s, s, true
	}
	return 0, 0, false
}

// keycodeOf is the inverse of the tables: keysym to (key, needs Shift).
var keycodeOf = func() map[keys.Keysym]keyShift {
	m := make(map[keys.Keysym]keyShift)
	for k, s := range namedKeys {
		m[s] = keyShift{Code: k}
	}
	m[keys.KeyISOLeftTab] = keyShift{Code: VKTab, Shift: true}
	for k, r := range usKeys {
		if _, dup := m[KeysymOfRune(r[1])]; !dup && r[1] != r[0] {
			m[KeysymOfRune(r[1])] = keyShift{Code: k, Shift: true}
		}
		m[KeysymOfRune(r[0])] = keyShift{Code: k}
	}
	for k, s := range keypadKeys {
		m[s] = keyShift{Code: k}
	}
	return m
}()

type keyShift struct {
	Code  Keycode
	Shift bool
}

// KeycodeFor returns the key that types keysym s on a US ANSI layout and
// whether Shift must be held for it: the inverse of NamedKeysym and
// BaseKeysyms, for replay. Upper-case letters give their letter key with
// Shift.
func KeycodeFor(s keys.Keysym) (code Keycode, shift bool, ok bool) {
	if ks, ok := keycodeOf[s]; ok {
		return ks.Code, ks.Shift, true
	}
	return 0, false, false
}
