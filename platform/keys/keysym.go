package keys

import (
	"strconv"
	"unicode"
)

// Keysym is an X keysym: the symbol a key stands for at one shift level, as
// X11/keysymdef.h numbers it (0 is NoSymbol).
type Keysym uint32

// The keysyms the folding gives a meaning to. Printable Latin-1 keysyms are
// their own code points and Unicode keysyms are 0x01000000 + the code point,
// so they need no names here.
const (
	KeyBackSpace   Keysym = 0xff08
	KeyTab         Keysym = 0xff09
	KeyReturn      Keysym = 0xff0d
	KeyEscape      Keysym = 0xff1b
	KeyHome        Keysym = 0xff50
	KeyLeft        Keysym = 0xff51
	KeyUp          Keysym = 0xff52
	KeyRight       Keysym = 0xff53
	KeyDown        Keysym = 0xff54
	KeyPageUp      Keysym = 0xff55
	KeyPageDown    Keysym = 0xff56
	KeyEnd         Keysym = 0xff57
	KeyInsert      Keysym = 0xff63
	KeyKPEnter     Keysym = 0xff8d
	KeyF1          Keysym = 0xffbe
	KeyF12         Keysym = 0xffc9
	KeyShiftL      Keysym = 0xffe1
	KeyShiftR      Keysym = 0xffe2
	KeyControlL    Keysym = 0xffe3
	KeyControlR    Keysym = 0xffe4
	KeyCapsLock    Keysym = 0xffe5
	KeyMetaL       Keysym = 0xffe7
	KeyMetaR       Keysym = 0xffe8
	KeyAltL        Keysym = 0xffe9
	KeyAltR        Keysym = 0xffea
	KeySuperL      Keysym = 0xffeb
	KeySuperR      Keysym = 0xffec
	KeyDelete      Keysym = 0xffff
	KeyISOLeftTab  Keysym = 0xfe20
	KeyISOLevel3   Keysym = 0xfe03
	keyNumLock     Keysym = 0xff7f
	keyISOLevel5   Keysym = 0xfe11
	keyKPSpace     Keysym = 0xff80
	keyKPFirst     Keysym = 0xffaa // KP_Multiply
	keyKPLast      Keysym = 0xffbd // KP_Equal
	KeyUnicodeBase Keysym = 0x01000000
)

// Modifier bits the folder tracks from key presses and releases. X's own
// state field is not relied on: whether RECORD fills it in for device
// events differs between servers.
const (
	ModShift uint8 = 1 << iota
	ModCtrl
	ModAlt
	ModSuper
)

// ModifierOf returns the modifier bit a key sets, or 0. Level-3 shift
// (AltGr) and Num Lock choose symbols, not chords, so they set none but are
// still keys that type nothing.
func ModifierOf(k Keysym) (bit uint8, isModifier bool) {
	switch k {
	case KeyShiftL, KeyShiftR:
		return ModShift, true
	case KeyControlL, KeyControlR:
		return ModCtrl, true
	case KeyAltL, KeyAltR, KeyMetaL, KeyMetaR:
		return ModAlt, true
	case KeySuperL, KeySuperR:
		return ModSuper, true
	case KeyCapsLock, KeyISOLevel3, keyNumLock, keyISOLevel5:
		return 0, true
	}
	return 0, false
}

// RuneOf returns the character a keysym types, if it types one.
func RuneOf(k Keysym) (rune, bool) {
	switch {
	case k >= 0x20 && k <= 0x7e, k >= 0xa0 && k <= 0xff:
		return rune(k), true
	case k >= KeyUnicodeBase+0x100 && k <= KeyUnicodeBase+0x10ffff:
		return rune(k - KeyUnicodeBase), true
	case k == keyKPSpace:
		return ' ', true
	case k >= keyKPFirst && k <= keyKPLast:
		// KP_Multiply..KP_9 and KP_Equal map onto ASCII at a fixed
		// offset, except the gap between KP_9 and KP_Equal.
		if k >= 0xffba && k <= 0xffbc {
			return 0, false
		}
		return rune(k - 0xff80), true
	}
	return 0, false
}

// Upper returns the shifted keysym of a letter key whose keymap lists only
// the lower case (X's rule for a NoSymbol second column).
func Upper(k Keysym) Keysym {
	r, ok := RuneOf(k)
	if !ok || !unicode.IsLower(r) {
		return k
	}
	u := unicode.ToUpper(r)
	if u < 0x100 {
		return Keysym(u)
	}
	return KeyUnicodeBase + Keysym(u)
}

// names are the chord names of keys that type no character.
var names = map[Keysym]string{
	KeyBackSpace: "backspace", KeyTab: "tab", KeyISOLeftTab: "tab", KeyReturn: "enter",
	KeyKPEnter: "enter", KeyEscape: "escape", KeyHome: "home", KeyEnd: "end",
	KeyLeft: "left", KeyRight: "right", KeyUp: "up", KeyDown: "down",
	KeyPageUp: "pageup", KeyPageDown: "pagedown", KeyInsert: "insert", KeyDelete: "delete",
	0x20: "space",
}

// NameOf returns a key's name in a chord: "f4", "enter", "s" (letters in
// lower case, whatever the shift level), "/" for punctuation.
func NameOf(k Keysym) string {
	if n, ok := names[k]; ok {
		return n
	}
	if k >= KeyF1 && k <= KeyF12+12 { // F1..F24
		return "f" + strconv.Itoa(int(k-KeyF1)+1)
	}
	if r, ok := RuneOf(k); ok {
		return string(unicode.ToLower(r))
	}
	return ""
}

// Keymap is a keyboard mapping as GetKeyboardMapping returns it: PerCode
// keysyms for each keycode from Min on. It is read-only once built.
type Keymap struct {
	Min     byte
	PerCode int
	Syms    []Keysym
}

// Lookup returns the keysyms of code without and with Shift; shifted is the
// Upper case of a letter when the mapping lists only one.
func (m *Keymap) Lookup(code byte) (plain, shifted Keysym) {
	if m == nil || m.PerCode < 1 || code < m.Min {
		return 0, 0
	}
	i := int(code-m.Min) * m.PerCode
	if i >= len(m.Syms) {
		return 0, 0
	}
	plain = m.Syms[i]
	if m.PerCode > 1 {
		shifted = m.Syms[i+1]
	}
	if shifted == 0 {
		shifted = Upper(plain)
	}
	return plain, shifted
}
