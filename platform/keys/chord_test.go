package keys

import (
	"slices"
	"testing"
)

func TestParseChord(t *testing.T) {
	for _, tc := range []struct {
		in   string
		mods []uint32
		key  uint32
		bad  bool
	}{
		{"ctrl+s", []uint32{0xffe3}, 's', false},
		{"Ctrl+Shift+T", []uint32{0xffe3, 0xffe1}, 't', false},
		{"alt+f4", []uint32{0xffe9}, 0xffc1, false},
		{"Return", nil, 0xff0d, false},
		{"a", nil, 'a', false},
		{"shift", nil, 0, true},
		{"ctrl+nope", nil, 0, true},
		{"s+ctrl", nil, 0, true},
	} {
		c, err := ParseChord(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && (c.Key != tc.key || !slices.Equal(c.Modifiers, tc.mods))) {
			t.Errorf("ParseChord(%q) = %+v, %v", tc.in, c, err)
		}
	}
	if KeysymFor('é') != 0xe9 || KeysymFor('\n') != 0xff0d || KeysymFor('€') != 0x010020ac {
		t.Error("keysyms of é, newline or € are wrong")
	}
}
