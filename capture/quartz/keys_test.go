package quartz

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture/x11"
	"github.com/reprise-dev/reprise/events"
)

func TestNamedKeysym(t *testing.T) {
	for _, tc := range []struct {
		code Keycode
		want x11.Keysym
	}{
		{VKReturn, x11.KeyReturn}, {VKTab, x11.KeyTab}, {VKDelete, x11.KeyBackSpace},
		{VKForwardDelete, x11.KeyDelete}, {VKEscape, x11.KeyEscape}, {VKKeypadEnter, x11.KeyKPEnter},
		{VKLeftArrow, x11.KeyLeft}, {VKUpArrow, x11.KeyUp}, {VKHome, x11.KeyHome}, {VKPageDown, x11.KeyPageDown},
		{VKF1, x11.KeyF1}, {0x78, x11.KeyF1 + 1}, {0x60, x11.KeyF1 + 4}, {0x6F, x11.KeyF12},
		{VKCommand, x11.KeyControlL}, {VKControl, x11.KeySuperL}, {VKOption, x11.KeyAltL}, {VKShift, x11.KeyShiftL},
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
		plain, shifted x11.Keysym
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
		sym   x11.Keysym
		code  Keycode
		shift bool
	}{
		{'a', 0x00, false}, {'A', 0x00, true}, {'!', 0x12, true}, {'1', 0x12, false},
		{' ', VKSpace, false}, {'?', 0x2C, true}, {x11.KeyISOLeftTab, VKTab, true},
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
	for r, want := range map[rune]x11.Keysym{'a': 'a', 'é': 0xe9, '€': 0x010020ac, ' ': 0x20} {
		if got := KeysymOfRune(r); got != want {
			t.Errorf("KeysymOfRune(%q) = %#x, want %#x", r, got, want)
		}
	}
}

// fold runs events through a Translator and a Folder, as the pipeline does.
func fold(evs []Event) []events.Step {
	var tr Translator
	var f x11.Folder
	var out []events.Step
	for _, e := range evs {
		for _, r := range tr.Translate(e) {
			for _, s := range f.Add(r) {
				out = append(out, s.Step)
			}
		}
	}
	for _, s := range f.Flush() {
		out = append(out, s.Step)
	}
	return out
}

func TestTranslateFolds(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	key := func(ms int, code Keycode, flags uint64, text string) Event {
		return Event{Kind: KeyDown, Keycode: code, Flags: flags, Text: text, Time: at(ms), X: 5, Y: 6}
	}
	click := func(ms, x, y, button int, flags uint64) Event {
		return Event{Kind: MouseDown, Button: button, Flags: flags, X: x, Y: y, Time: at(ms)}
	}
	type want struct{ action, value string }
	for _, tc := range []struct {
		name string
		evs  []Event
		want []want
	}{
		{"typed text, shifted by the layout", []Event{
			key(0, 0x04, FlagShift, "H"), key(10, 0x22, 0, "i"), key(20, 0x12, FlagShift, "!"),
		}, []want{{events.ActionFill, "Hi!"}}},
		{"backspace and return", []Event{
			key(0, 0x00, 0, "a"), key(10, 0x0B, 0, "b"), key(20, VKDelete, 0, "\x7f"), key(30, VKReturn, 0, "\r"),
		}, []want{{events.ActionFill, "a"}, {events.ActionSubmit, ""}}},
		{"command c is copy, command v paste", []Event{
			key(0, 0x08, FlagCommand, "c"), key(10, 0x09, FlagCommand, "v"),
		}, []want{{events.ActionCopy, "ctrl+c"}, {events.ActionPaste, "ctrl+v"}}},
		{"command shift digit names the key", []Event{
			key(0, 0x12, FlagCommand|FlagShift, "!"),
		}, []want{{events.ActionRun, "ctrl+shift+1"}}},
		{"control is super, its control character ignored", []Event{
			key(0, 0x00, FlagControl, "\x01"),
		}, []want{{events.ActionRun, "super+a"}}},
		{"option types a character", []Event{
			key(0, 0x23, 0, "p"), key(10, 0x0E, FlagOption, "´"), key(20, 0x0E, 0, "é"),
		}, []want{{events.ActionFill, "p´é"}}},
		{"option with a named key is a chord", []Event{
			key(0, 0x76, FlagOption, ""),
		}, []want{{events.ActionRun, "alt+f4"}}},
		{"dead key types nothing", []Event{
			key(0, 0x0E, FlagOption, ""), key(10, 0x00, 0, "a"),
		}, []want{{events.ActionFill, "a"}}},
		{"modifiers released between chords", []Event{
			key(0, 0x01, FlagCommand, "s"), key(10, 0x00, 0, "x"),
		}, []want{{events.ActionRun, "ctrl+s"}, {events.ActionFill, "x"}}},
		{"command click, right click, double click", []Event{
			click(0, 10, 10, 1, FlagCommand), click(1000, 20, 20, 3, 0),
			click(2000, 30, 30, 1, 0), click(2100, 31, 31, 1, 0),
		}, []want{{events.ActionClick, "ctrl"}, {events.ActionClick, "right"}, {events.ActionClick, "double"}}},
		{"escape alone is a chord", []Event{key(0, VKEscape, 0, "\x1b")}, []want{{events.ActionRun, "escape"}}},
		{"modifier and fn keys alone make nothing", []Event{
			key(0, VKShift, FlagShift, ""), key(10, VKFunction, 0, ""),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fold(tc.evs)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d steps %+v, want %v", len(got), got, tc.want)
			}
			for i, w := range tc.want {
				v := ""
				if got[i].Value != nil {
					v = got[i].Value.Raw
				}
				if got[i].Action != w.action || v != w.value {
					t.Errorf("step %d = %s %q, want %s %q", i, got[i].Action, v, w.action, w.value)
				}
			}
		})
	}
}
