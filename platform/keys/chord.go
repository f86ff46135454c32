// Package keys names keys the way recording and replay both speak of them
// on every OS: X keysyms (X11/keysymdef.h), chords such as "ctrl+s", and
// (in keys/mackey) macOS key codes mapped onto keysyms.
package keys

import (
	"fmt"
	"strings"
)

// X keysyms for the keys a skill names; letters, digits and Latin-1
// characters are their own code points.
var namedKeys = map[string]uint32{
	"tab": 0xff09, "return": 0xff0d, "enter": 0xff0d, "escape": 0xff1b, "esc": 0xff1b,
	"backspace": 0xff08, "delete": 0xffff, "home": 0xff50, "end": 0xff57,
	"left": 0xff51, "up": 0xff52, "right": 0xff53, "down": 0xff54,
	"pageup": 0xff55, "pagedown": 0xff56, "space": 0x20,
	"f1": 0xffbe, "f2": 0xffbf, "f3": 0xffc0, "f4": 0xffc1, "f5": 0xffc2, "f6": 0xffc3,
	"f7": 0xffc4, "f8": 0xffc5, "f9": 0xffc6, "f10": 0xffc7, "f11": 0xffc8, "f12": 0xffc9,
}

var modifierKeys = map[string]uint32{
	"ctrl": 0xffe3, "control": 0xffe3, "shift": 0xffe1, "alt": 0xffe9, "super": 0xffeb, "meta": 0xffe9,
}

// Chord is a key with the modifiers held while it is pressed.
type Chord struct {
	Modifiers []uint32
	Key       uint32
}

// ParseChord reads "ctrl+shift+t", "alt+f4", "Return" or "a".
func ParseChord(s string) (Chord, error) {
	parts := strings.Split(strings.ToLower(strings.TrimSpace(s)), "+")
	var c Chord
	for i, p := range parts {
		last := i == len(parts)-1
		if m, ok := modifierKeys[p]; ok && !last {
			c.Modifiers = append(c.Modifiers, m)
			continue
		}
		if !last {
			return Chord{}, fmt.Errorf("chord %q: %q is not a modifier (ctrl, shift, alt, super)", s, p)
		}
		if k, ok := namedKeys[p]; ok {
			c.Key = k
		} else if r := []rune(p); len(r) == 1 && r[0] >= 0x20 && r[0] <= 0xff {
			c.Key = uint32(r[0])
		} else {
			return Chord{}, fmt.Errorf("chord %q: unknown key %q", s, p)
		}
	}
	return c, nil
}

// KeysymFor is the X keysym of the key that types r.
func KeysymFor(r rune) uint32 {
	switch {
	case r == '\n':
		return 0xff0d
	case r == '\t':
		return 0xff09
	case r == '\b':
		return 0xff08
	case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xff:
		return uint32(r)
	}
	return 0x01000000 | uint32(r) // X's Unicode keysyms
}
