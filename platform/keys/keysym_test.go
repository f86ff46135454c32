package keys

import "testing"

func TestKeymapLookup(t *testing.T) {
	m := &Keymap{Min: 8, PerCode: 2, Syms: []Keysym{'a', 0, '1', '!', KeyReturn, 0}}
	for _, tc := range []struct {
		code          byte
		plain, shifty Keysym
	}{{8, 'a', 'A'}, {9, '1', '!'}, {10, KeyReturn, KeyReturn}, {7, 0, 0}, {11, 0, 0}} {
		p, s := m.Lookup(tc.code)
		if p != tc.plain || s != tc.shifty {
			t.Errorf("Lookup(%d) = %#x, %#x; want %#x, %#x", tc.code, p, s, tc.plain, tc.shifty)
		}
	}
}
