package quartz

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/keys/mackey"
)

// assemble runs events through a Translator and an Assembler, as the pipeline does.
func assemble(evs []Event) []events.Step {
	var tr Translator
	var f desktop.Assembler
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

func TestTranslateAssembles(t *testing.T) {
	t0 := time.Unix(1700000000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	key := func(ms int, code mackey.Keycode, flags uint64, text string) Event {
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
			key(0, 0x04, mackey.FlagShift, "H"), key(10, 0x22, 0, "i"), key(20, 0x12, mackey.FlagShift, "!"),
		}, []want{{events.ActionFill, "Hi!"}}},
		{"backspace and return", []Event{
			key(0, 0x00, 0, "a"), key(10, 0x0B, 0, "b"), key(20, mackey.VKDelete, 0, "\x7f"), key(30, mackey.VKReturn, 0, "\r"),
		}, []want{{events.ActionFill, "a"}, {events.ActionSubmit, ""}}},
		{"command c is copy, command v paste", []Event{
			key(0, 0x08, mackey.FlagCommand, "c"), key(10, 0x09, mackey.FlagCommand, "v"),
		}, []want{{events.ActionCopy, "ctrl+c"}, {events.ActionPaste, "ctrl+v"}}},
		{"command shift digit names the key", []Event{
			key(0, 0x12, mackey.FlagCommand|mackey.FlagShift, "!"),
		}, []want{{events.ActionRun, "ctrl+shift+1"}}},
		{"control is super, its control character ignored", []Event{
			key(0, 0x00, mackey.FlagControl, "\x01"),
		}, []want{{events.ActionRun, "super+a"}}},
		{"option types a character", []Event{
			key(0, 0x23, 0, "p"), key(10, 0x0E, mackey.FlagOption, "´"), key(20, 0x0E, 0, "é"),
		}, []want{{events.ActionFill, "p´é"}}},
		{"option with a named key is a chord", []Event{
			key(0, 0x76, mackey.FlagOption, ""),
		}, []want{{events.ActionRun, "alt+f4"}}},
		{"dead key types nothing", []Event{
			key(0, 0x0E, mackey.FlagOption, ""), key(10, 0x00, 0, "a"),
		}, []want{{events.ActionFill, "a"}}},
		{"modifiers released between chords", []Event{
			key(0, 0x01, mackey.FlagCommand, "s"), key(10, 0x00, 0, "x"),
		}, []want{{events.ActionRun, "ctrl+s"}, {events.ActionFill, "x"}}},
		{"command click, right click, double click", []Event{
			click(0, 10, 10, 1, mackey.FlagCommand), click(1000, 20, 20, 3, 0),
			click(2000, 30, 30, 1, 0), click(2100, 31, 31, 1, 0),
		}, []want{{events.ActionClick, "ctrl"}, {events.ActionClick, "right"}, {events.ActionClick, "double"}}},
		{"escape alone is a chord", []Event{key(0, mackey.VKEscape, 0, "\x1b")}, []want{{events.ActionRun, "escape"}}},
		{"modifier and fn keys alone make nothing", []Event{
			key(0, mackey.VKShift, mackey.FlagShift, ""), key(10, mackey.VKFunction, 0, ""),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := assemble(tc.evs)
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
