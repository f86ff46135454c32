package winhook

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture/x11"
	"github.com/reprise-dev/reprise/events"
)

func TestKeysymsOf(t *testing.T) {
	for _, c := range []struct {
		vk             uint16
		extended       bool
		plain, shifted x11.Keysym
	}{
		{'A', false, 'a', 'A'},
		{'Z', false, 'z', 'Z'},
		{'0', false, '0', ')'},
		{'1', false, '1', '!'},
		{'9', false, '9', '('},
		{0x0d, false, x11.KeyReturn, x11.KeyReturn},
		{0x0d, true, x11.KeyKPEnter, x11.KeyKPEnter},
		{0x09, false, x11.KeyTab, x11.KeyISOLeftTab},
		{0x08, false, x11.KeyBackSpace, x11.KeyBackSpace},
		{0x1b, false, x11.KeyEscape, x11.KeyEscape},
		{0x20, false, ' ', ' '},
		{0x70, false, x11.KeyF1, x11.KeyF1},
		{0x7b, false, x11.KeyF12, x11.KeyF12},
		{0x87, false, x11.KeyF1 + 23, x11.KeyF1 + 23},
		{0x60, false, 0xffb0, 0xffb0},
		{0x69, false, 0xffb9, 0xffb9},
		{0x6b, false, 0xffab, 0xffab},
		{0xa0, false, x11.KeyShiftL, x11.KeyShiftL},
		{0xa1, false, x11.KeyShiftR, x11.KeyShiftR},
		{0x10, false, x11.KeyShiftL, x11.KeyShiftL},
		{0xa2, false, x11.KeyControlL, x11.KeyControlL},
		{0xa3, false, x11.KeyControlR, x11.KeyControlR},
		{0x11, false, x11.KeyControlL, x11.KeyControlL},
		{0xa4, false, x11.KeyAltL, x11.KeyAltL},
		{0xa5, false, x11.KeyAltR, x11.KeyAltR},
		{0x5b, false, x11.KeySuperL, x11.KeySuperL},
		{0x14, false, x11.KeyCapsLock, x11.KeyCapsLock},
		{0x2d, false, x11.KeyInsert, x11.KeyInsert},
		{0x2e, false, x11.KeyDelete, x11.KeyDelete},
		{0x25, false, x11.KeyLeft, x11.KeyLeft},
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
		{0xad, false, 0, 0}, // VK_VOLUME_MUTE: nothing to fold
		{0xe5, false, 0, 0}, // VK_PROCESSKEY
	} {
		p, s := keysymsOf(c.vk, c.extended)
		if p != c.plain || s != c.shifted {
			t.Errorf("keysymsOf(%#x, %v) = %#x, %#x; want %#x, %#x", c.vk, c.extended, p, s, c.plain, c.shifted)
		}
	}
}

// TestFoldVirtualKeys checks that virtual keys, resolved as the source
// resolves them, fold into the steps the X11 floor makes.
func TestFoldVirtualKeys(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	win := x11.Window{ID: 0x1234, App: "notepad.exe", Title: "Untitled - Notepad"}
	var raws []x11.Raw
	n := 0
	key := func(kind x11.Kind, vk uint16) {
		n++
		r := keyRaw(kind, vk, false, t0.Add(time.Duration(n)*10*time.Millisecond))
		r.X, r.Y, r.Window = 10, 20, win
		raws = append(raws, r)
	}
	tap := func(vk uint16) { key(x11.KeyPress, vk); key(x11.KeyRelease, vk) }
	// "Hi 1!" then Enter, then ctrl+c and ctrl+s.
	key(x11.KeyPress, vkLShift)
	tap('H')
	key(x11.KeyRelease, vkLShift)
	tap('I')
	tap(0x20)
	tap('1')
	key(x11.KeyPress, vkRShift)
	tap('1')
	key(x11.KeyRelease, vkRShift)
	tap(vkReturn)
	key(x11.KeyPress, vkLControl)
	tap('C')
	tap('S')
	key(x11.KeyRelease, vkLControl)

	var f x11.Folder
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
