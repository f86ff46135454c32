package desktop

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/keys"
)

var (
	t0     = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	form   = Window{ID: 1, App: "Zenity", Title: "New customer"}
	notes  = Window{ID: 2, App: "Gedit", Title: "notes.txt"}
	tickKd = Kind(0) // a pseudo-event: the assembler's timer firing at Time
)

func at(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

func click(button, x, y, ms int) []Raw {
	return []Raw{
		{Kind: ButtonPress, Button: button, X: x, Y: y, Time: at(ms), Window: form},
		{Kind: ButtonRelease, Button: button, X: x, Y: y, Time: at(ms + 20), Window: form},
	}
}

func keyIn(w Window, sym, shifted keys.Keysym, ms int) []Raw {
	if shifted == 0 {
		shifted = keys.Upper(sym)
	}
	return []Raw{
		{Kind: KeyPress, Sym: sym, Shifted: shifted, X: 5, Y: 6, Time: at(ms), Window: w},
		{Kind: KeyRelease, Sym: sym, Shifted: shifted, X: 5, Y: 6, Time: at(ms + 10), Window: w},
	}
}

func key(sym keys.Keysym, ms int) []Raw { return keyIn(form, sym, 0, ms) }

func down(sym keys.Keysym, ms int) Raw {
	return Raw{Kind: KeyPress, Sym: sym, Time: at(ms), Window: form}
}

func up(sym keys.Keysym, ms int) Raw {
	return Raw{Kind: KeyRelease, Sym: sym, Time: at(ms), Window: form}
}

// typeIn types s into w as a person on a US keyboard would, from ms on, one
// key every 30 ms; keys.Upper case and "!" are typed with Shift.
func typeIn(w Window, s string, ms int) []Raw {
	var out []Raw
	for _, r := range s {
		sym, shifted := keys.Keysym(r), keys.Keysym(0)
		shift := r >= 'A' && r <= 'Z' || r == '!'
		switch {
		case r >= 'A' && r <= 'Z':
			sym = keys.Keysym(r + 'a' - 'A')
		case r == '!':
			sym, shifted = '1', '!'
		}
		if shift {
			out = append(out, down(keys.KeyShiftL, ms))
		}
		out = append(out, keyIn(w, sym, shifted, ms+1)...)
		if shift {
			out = append(out, up(keys.KeyShiftL, ms+12))
		}
		ms += 30
	}
	return out
}

func chord(ms int, syms ...keys.Keysym) []Raw {
	var out []Raw
	for i, s := range syms {
		out = append(out, Raw{Kind: KeyPress, Sym: s, Shifted: keys.Upper(s), X: 5, Y: 6, Time: at(ms + i), Window: form})
	}
	for i := len(syms) - 1; i >= 0; i-- {
		out = append(out, up(syms[i], ms+10+i))
	}
	return out
}

func tick(ms int) []Raw { return []Raw{{Kind: tickKd, Time: at(ms)}} }

func seq(parts ...[]Raw) []Raw {
	var out []Raw
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// assemble runs raws through an Assembler, then flushes it, and describes each step
// as "action[value]@x,y" plus, separately, the steps themselves.
func assemble(raws []Raw) ([]string, []Assembled) {
	var f Assembler
	var all []Assembled
	for _, r := range raws {
		if r.Kind == tickKd {
			all = append(all, f.Tick(r.Time)...)
			continue
		}
		all = append(all, f.Add(r)...)
	}
	all = append(all, f.Flush()...)
	var out []string
	for _, s := range all {
		d := s.Step.Action
		if v := s.Step.Value; v != nil {
			d += fmt.Sprintf("[%s:%s]", v.Type, v.Raw)
		}
		out = append(out, fmt.Sprintf("%s@%d,%d", d, s.Step.Cursor[0], s.Step.Cursor[1]))
	}
	return out, all
}

func TestAssemble(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []Raw
		want []string
	}{
		{"click", click(1, 100, 200, 0), []string{"click@100,200"}},
		{"double click", seq(click(1, 100, 200, 0), click(1, 103, 197, 150)),
			[]string{"click[enum:double]@100,200"}},
		{"two slow clicks", seq(click(1, 100, 200, 0), click(1, 100, 200, 500)),
			[]string{"click@100,200", "click@100,200"}},
		{"two distant clicks", seq(click(1, 100, 200, 0), click(1, 105, 200, 100)),
			[]string{"click@100,200", "click@105,200"}},
		{"triple click", seq(click(1, 10, 10, 0), click(1, 10, 10, 100), click(1, 10, 10, 200)),
			[]string{"click[enum:double]@10,10", "click@10,10"}},
		{"right click", click(3, 7, 8, 0), []string{"click[enum:right]@7,8"}},
		{"middle click", click(2, 7, 8, 0), []string{"click[enum:middle]@7,8"}},
		{"scroll ignored", seq(click(4, 1, 1, 0), click(5, 1, 1, 50), click(6, 1, 1, 100), click(7, 1, 1, 150)), nil},
		{"ctrl click", seq([]Raw{down(keys.KeyControlL, 0)}, click(1, 50, 60, 10), []Raw{up(keys.KeyControlL, 40)}),
			[]string{"click[enum:ctrl]@50,60"}},
		{"shift right click", seq([]Raw{down(keys.KeyShiftL, 0)}, click(3, 50, 60, 10)),
			[]string{"click[enum:shift+right]@50,60"}},
		{"held click ends at its deadline", seq(click(1, 10, 10, 0), tick(399), tick(400), click(1, 10, 10, 450)),
			[]string{"click@10,10", "click@10,10"}},
		{"typed text with backspace and shift",
			seq(typeIn(form, "Helo", 0), key(keys.KeyBackSpace, 200), key(keys.KeyBackSpace, 230), typeIn(form, "lp!", 260), key(keys.KeyTab, 400)),
			[]string{"fill[text:Help!]@5,6"}},
		{"tab commits", seq(typeIn(form, "ab", 0), key(keys.KeyTab, 100), typeIn(form, "cd", 200), key(keys.KeyISOLeftTab, 300)),
			[]string{"fill[text:ab]@5,6", "fill[text:cd]@5,6"}},
		{"enter commits and submits", seq(typeIn(form, "ab", 0), key(keys.KeyReturn, 100)),
			[]string{"fill[text:ab]@5,6", "submit@5,6"}},
		{"keypad enter submits", key(keys.KeyKPEnter, 0), []string{"submit@5,6"}},
		{"click commits", seq(typeIn(form, "ab", 0), click(1, 300, 40, 100)),
			[]string{"fill[text:ab]@5,6", "click@300,40"}},
		{"click then type", seq(click(1, 300, 40, 0), typeIn(form, "ab", 100)),
			[]string{"click@300,40", "fill[text:ab]@5,6"}},
		{"window change commits", seq(typeIn(form, "ab", 0), typeIn(notes, "cd", 100)),
			[]string{"fill[text:ab]@5,6", "fill[text:cd]@5,6"}},
		{"stop commits", typeIn(form, "a b", 0), []string{"fill[text:a b]@5,6"}},
		{"backspace on an empty field", seq(key(keys.KeyBackSpace, 0), key(keys.KeyBackSpace, 30), key(keys.KeyTab, 60)),
			[]string{"fill[text:]@5,6"}},
		{"caps lock", seq(key(keys.KeyCapsLock, 0), typeIn(form, "a1", 20), key(keys.KeyCapsLock, 100), typeIn(form, "b", 120)),
			[]string{"fill[text:A1b]@5,6"}},
		{"keypad digits", seq(key(0xffb4, 0), key(0xffb2, 30), key(0xffae, 60)), []string{"fill[text:42.]@5,6"}},
		{"unicode keysym", key(keys.KeyUnicodeBase+0x20ac, 0), []string{"fill[text:€]@5,6"}},
		{"cursor keys are not typed", seq(typeIn(form, "ab", 0), key(keys.KeyLeft, 100), key(keys.KeyDelete, 130)),
			[]string{"fill[text:ab]@5,6"}},
		{"ctrl+s", chord(0, keys.KeyControlL, 's'), []string{"run[enum:ctrl+s]@5,6"}},
		{"ctrl+shift+t", chord(0, keys.KeyControlL, keys.KeyShiftL, 't'), []string{"run[enum:ctrl+shift+t]@5,6"}},
		{"alt+f4", chord(0, keys.KeyAltL, keys.KeyF1+3), []string{"run[enum:alt+f4]@5,6"}},
		{"super+enter", chord(0, keys.KeySuperL, keys.KeyReturn), []string{"run[enum:super+enter]@5,6"}},
		{"escape", key(keys.KeyEscape, 0), []string{"run[enum:escape]@5,6"}},
		{"f5", key(keys.KeyF1+4, 0), []string{"run[enum:f5]@5,6"}},
		{"copy", chord(0, keys.KeyControlR, 'c'), []string{"copy[enum:ctrl+c]@5,6"}},
		{"terminal copy", chord(0, keys.KeyControlL, keys.KeyShiftR, 'c'), []string{"copy[enum:ctrl+shift+c]@5,6"}},
		{"paste", chord(0, keys.KeyControlL, 'v'), []string{"paste[enum:ctrl+v]@5,6"}},
		{"shift+insert pastes", chord(0, keys.KeyShiftL, keys.KeyInsert), []string{"paste[enum:shift+insert]@5,6"}},
		{"shift alone types", seq(chord(0, keys.KeyShiftL, 'x'), key(keys.KeyTab, 50)), []string{"fill[text:X]@5,6"}},
		{"chord commits a fill", seq(typeIn(form, "ab", 0), chord(100, keys.KeyControlL, 's')),
			[]string{"fill[text:ab]@5,6", "run[enum:ctrl+s]@5,6"}},
		{"modifiers released", seq(chord(0, keys.KeyControlL, 's'), typeIn(form, "s", 100)),
			[]string{"run[enum:ctrl+s]@5,6", "fill[text:s]@5,6"}},
		{"modifiers alone do nothing", seq(chord(0, keys.KeyControlL), chord(50, keys.KeySuperL), chord(100, keys.KeyAltL, keys.KeyShiftL)), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := assemble(tc.in)
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("assemble(%s) = %q; want %q", tc.name, got, tc.want)
			}
		})
	}
}

// TestAssembleFloor checks the floor of each assembled step: the moment, window
// and app of its first input event, a human actor, and a valid step.
func TestAssembleFloor(t *testing.T) {
	in := seq(click(1, 100, 200, 0), click(1, 101, 200, 100), typeIn(form, "hi", 1000),
		typeIn(notes, "x", 2000), click(3, 1, 2, 3000))
	_, got := assemble(in)
	want := []struct {
		ms  int
		win Window
	}{{0, form}, {1001, form}, {2001, notes}, {3000, form}}
	if len(got) != len(want) {
		t.Fatalf("assemble gave %d steps; want %d", len(got), len(want))
	}
	for i, w := range want {
		s := got[i].Step
		if err := s.Validate(); err != nil {
			t.Errorf("step %d (%s): Validate() = %v; want nil", i, s.Action, err)
		}
		if !got[i].At.Equal(at(w.ms)) || s.TS != events.Stamp(at(w.ms)) {
			t.Errorf("step %d (%s): At %v, TS %v; want %v (its first input event)", i, s.Action, got[i].At, s.TS, at(w.ms))
		}
		if s.ActiveApp != w.win.App || s.ActiveWindow != w.win.Title {
			t.Errorf("step %d (%s): app %q window %q; want %q %q", i, s.Action, s.ActiveApp, s.ActiveWindow, w.win.App, w.win.Title)
		}
		if s.Actor != events.ActorHuman || s.Outcome != events.OutcomeOK || s.Seq != 0 || s.Enrichment != nil || s.ScreenshotRef != "" {
			t.Errorf("step %d (%s) = %+v; want actor human, outcome ok, no seq, enrichment or frame", i, s.Action, s)
		}
	}
}

// TestAssembleEnrichment: a press's enrichment goes to the click it begins, also
// when the click becomes a double.
func TestAssembleEnrichment(t *testing.T) {
	e := &events.Enrichment{Kind: events.KindAX, Role: "push button", Label: "OK"}
	in := click(1, 10, 10, 0)
	in[0].Enrichment = e
	_, got := assemble(seq(in, click(1, 10, 10, 100)))
	if len(got) != 1 || got[0].Step.Enrichment != e {
		t.Fatalf("assemble(enriched double click) = %+v; want one step with the first press's enrichment", got)
	}
}
