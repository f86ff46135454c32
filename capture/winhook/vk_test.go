package winhook

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/keys"
)

func TestKeysymsOf(t *testing.T) {
	for _, c := range []struct {
		vk             uint16
		extended       bool
		plain, shifted keys.Keysym
	}{
		{'A', false, 'a', 'A'},
		{'Z', false, 'z', 'Z'},
		{'0', false, '0', ')'},
		{'1', false, '1', '!'},
		{'9', false, '9', '('},
		{0x0d, false, keys.KeyReturn, keys.KeyReturn},
		{0x0d, true, keys.KeyKPEnter, keys.KeyKPEnter},
		{0x09, false, keys.KeyTab, keys.KeyISOLeftTab},
		{0x08, false, keys.KeyBackSpace, keys.KeyBackSpace},
		{0x1b, false, keys.KeyEscape, keys.KeyEscape},
		{0x20, false, ' ', ' '},
		{0x70, false, keys.KeyF1, keys.KeyF1},
		{0x7b, false, keys.KeyF12, keys.KeyF12},
		{0x87, false, keys.KeyF1 + 23, keys.KeyF1 + 23},
		{0x60, false, 0xffb0, 0xffb0},
		{0x69, false, 0xffb9, 0xffb9},
		{0x6b, false, 0xffab, 0xffab},
		{0xa0, false, keys.KeyShiftL, keys.KeyShiftL},
		{0xa1, false, keys.KeyShiftR, keys.KeyShiftR},
		{0x10, false, keys.KeyShiftL, keys.KeyShiftL},
		{0xa2, false, keys.KeyControlL, keys.KeyControlL},
		{0xa3, false, keys.KeyControlR, keys.KeyControlR},
		{0x11, false, keys.KeyControlL, keys.KeyControlL},
		{0xa4, false, keys.KeyAltL, keys.KeyAltL},
		{0xa5, false, keys.KeyAltR, keys.KeyAltR},
		{0x5b, false, keys.KeySuperL, keys.KeySuperL},
		{0x14, false, keys.KeyCapsLock, keys.KeyCapsLock},
		{0x2d, false, keys.KeyInsert, keys.KeyInsert},
		{0x2e, false, keys.KeyDelete, keys.KeyDelete},
		{0x25, false, keys.KeyLeft, keys.KeyLeft},
		{0xba, false, ';', ':'},
		{0xbb, false, '=', '+'},
		{0xbc, false, ',', '<'},
		{0xbd, false, '-', '_'},
		{0xbe, false, '.', '>'},
		{0xbf, false, '/', '?'},
		{0xc0, false, '`', '~'},
		{0xdb, false, '[', '{'},
		{0xdc, false, '\\', '|'},
		{0xdd, false, ']', '}'},
		{0xde, false, '\'', '"'},
		{0xad, false, 0, 0}, // VK_VOLUME_MUTE: nothing to assemble
		{0xe5, false, 0, 0}, // VK_PROCESSKEY
	} {
		p, s := keysymsOf(c.vk, c.extended)
		if p != c.plain || s != c.shifted {
			t.Errorf("keysymsOf(%#x, %v) = %#x, %#x; want %#x, %#x", c.vk, c.extended, p, s, c.plain, c.shifted)
		}
	}
}

// TestAssembleVirtualKeys checks that virtual keys, resolved as the source
// resolves them, assemble into the steps the X11 floor makes.
func TestAssembleVirtualKeys(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	win := desktop.Window{ID: 0x1234, App: "notepad.exe", Title: "Untitled - Notepad"}
	var raws []desktop.Raw
	n := 0
	key := func(kind desktop.Kind, vk uint16) {
		n++
		r := keyRaw(kind, vk, false, t0.Add(time.Duration(n)*10*time.Millisecond))
		r.X, r.Y, r.Window = 10, 20, win
		raws = append(raws, r)
	}
	tap := func(vk uint16) { key(desktop.KeyPress, vk); key(desktop.KeyRelease, vk) }
	// "Hi 1!" then Enter, then ctrl+c and ctrl+s.
	key(desktop.KeyPress, vkLShift)
	tap('H')
	key(desktop.KeyRelease, vkLShift)
	tap('I')
	tap(0x20)
	tap('1')
	key(desktop.KeyPress, vkRShift)
	tap('1')
	key(desktop.KeyRelease, vkRShift)
	tap(vkReturn)
	key(desktop.KeyPress, vkLControl)
	tap('C')
	tap('S')
	key(desktop.KeyRelease, vkLControl)

	var f desktop.Assembler
	var got []events.Step
	for _, r := range raws {
		for _, s := range f.Add(r) {
			got = append(got, s.Step)
		}
	}
	for _, s := range f.Flush() {
		got = append(got, s.Step)
	}
	want := []struct{ action, value string }{
		{events.ActionFill, "Hi 1!"},
		{events.ActionSubmit, ""},
		{events.ActionCopy, "ctrl+c"},
		{events.ActionRun, "ctrl+s"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d steps %+v; want %d", len(got), got, len(want))
	}
	for i, w := range want {
		v := ""
		if got[i].Value != nil {
			v = got[i].Value.Raw
		}
		if got[i].Action != w.action || v != w.value || got[i].ActiveApp != win.App || got[i].ActiveWindow != win.Title {
			t.Errorf("step %d = %s %q in %q/%q; want %s %q", i, got[i].Action, v, got[i].ActiveApp, got[i].ActiveWindow, w.action, w.value)
		}
	}
}
