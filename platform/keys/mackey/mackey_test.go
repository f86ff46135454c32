package mackey

import (
	"testing"

	"github.com/reprise-dev/reprise/platform/keys"
)

func TestNamedKeysym(t *testing.T) {
	for _, tc := range []struct {
		code Keycode
		want keys.Keysym
	}{
		{VKReturn, keys.KeyReturn}, {VKTab, keys.KeyTab}, {VKDelete, keys.KeyBackSpace},
		{VKForwardDelete, keys.KeyDelete}, {VKEscape, keys.KeyEscape}, {VKKeypadEnter, keys.KeyKPEnter},
		{VKLeftArrow, keys.KeyLeft}, {VKUpArrow, keys.KeyUp}, {VKHome, keys.KeyHome}, {VKPageDown, keys.KeyPageDown},
		{VKF1, keys.KeyF1}, {0x78, keys.KeyF1 + 1}, {0x60, keys.KeyF1 + 4}, {0x6F, keys.KeyF12},
		{VKCommand, keys.KeyControlL}, {VKControl, keys.KeySuperL}, {VKOption, keys.KeyAltL}, {VKShift, keys.KeyShiftL},
	} {
		if got, ok := NamedKeysym(tc.code); !ok || got != tc.want {
			t.Errorf("NamedKeysym(%#x) = %#x, %v; want %#x", tc.code, got, ok, tc.want)
		}
	}
	if _, ok := NamedKeysym(0x00); ok {
		t.Error("the A key is not a named key")
	}
}

func TestBaseKeysyms(t *testing.T) {
	for _, tc := range []struct {
		code           Keycode
		plain, shifted keys.Keysym
	}{
		{0x00, 'a', 'A'}, {0x08, 'c', 'C'}, {0x09, 'v', 'V'}, {0x12, '1', '!'}, {0x1D, '0', ')'},
		{0x2C, '/', '?'}, {0x32, '`', '~'}, {VKSpace, ' ', ' '}, {0x52, 0xffb0, 0xffb0},
	} {
		p, s, ok := BaseKeysyms(tc.code)
		if !ok || p != tc.plain || s != tc.shifted {
			t.Errorf("BaseKeysyms(%#x) = %#x, %#x, %v; want %#x, %#x", tc.code, p, s, ok, tc.plain, tc.shifted)
		}
	}
}

func TestKeycodeForInvertsTables(t *testing.T) {
	for code, sym := range namedKeys {
		if got, shift, ok := KeycodeFor(sym); !ok || got != code || shift {
			t.Errorf("KeycodeFor(%#x) = %#x, %v, %v; want %#x", sym, got, shift, ok, code)
		}
	}
	for _, tc := range []struct {
		sym   keys.Keysym
		code  Keycode
		shift bool
	}{
		{'a', 0x00, false}, {'A', 0x00, true}, {'!', 0x12, true}, {'1', 0x12, false},
		{' ', VKSpace, false}, {'?', 0x2C, true}, {keys.KeyISOLeftTab, VKTab, true},
	} {
		if got, shift, ok := KeycodeFor(tc.sym); !ok || got != tc.code || shift != tc.shift {
			t.Errorf("KeycodeFor(%q) = %#x, %v, %v; want %#x, %v", rune(tc.sym), got, shift, ok, tc.code, tc.shift)
		}
	}
	if _, _, ok := KeycodeFor(KeysymOfRune('é')); ok {
		t.Error("é has no US key")
	}
}

func TestKeysymOfRune(t *testing.T) {
	for r, want := range map[rune]keys.Keysym{'a': 'a', 'é': 0xe9, '€': 0x010020ac, ' ': 0x20} {
		if got := KeysymOfRune(r); got != want {
			t.Errorf("KeysymOfRune(%q) = %#x, want %#x", r, got, want)
		}
	}
}
