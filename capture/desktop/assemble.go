package desktop

import (
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/keys"
)

// Double-click bounds: a second button-1 press this soon and this close to
// the first makes the two one double click (the common desktop defaults).
const (
	DoubleClickTime     = 400 * time.Millisecond
	DoubleClickDistance = 4 // pixels, in each axis
)

// Kind is what a raw input event is.
type Kind uint8

// Raw event kinds: the X core device events RECORD reports.
const (
	KeyPress Kind = iota + 2 // X's own event codes, so the wire maps straight on
	KeyRelease
	ButtonPress
	ButtonRelease
)

// Window is the window an event went to, as a step names it.
type Window struct {
	ID    uint32 // 0 when unknown
	App   string // the application ("Zenity", "Google-chrome")
	Title string // the window's title
}

// Raw is one input event, stamped when the input callback saw it.
type Raw struct {
	Kind   Kind
	Button int // 1 left, 2 middle, 3 right, 4-7 scroll, for button events
	// Keycode is the X keycode of a key event; Sym and Shifted are its
	// keysyms without and with Shift, filled in off the input path.
	Keycode      byte
	Sym, Shifted keys.Keysym
	X, Y         int // root coordinates of the pointer
	Time         time.Time
	Window       Window
	// Enrichment is the element under a button press, if an enricher
	// resolved it; the assembler hands it to the step the press begins.
	Enrichment *events.Enrichment
}

// Assembled is one intentful step the assembler produced. At is the moment of its
// first input event: the step's frame must be older than it.
type Assembled struct {
	Step events.Step
	At   time.Time
}

// Assembler turns raw input into intentful steps (SPEC sections 4 and 9): a
// click, a field's committed text, a chord; never a keystroke tape. It is not
// safe for concurrent use: one goroutine feeds it in event order.
//
// Verb mapping, within SPEC section 4's locked verbs:
//   - button 1: click; two presses within DoubleClickTime and
//     DoubleClickDistance: one click with value {"double", enum}. Button 3 is
//     a click with value "right", button 2 "middle". Modifiers held make a
//     prefix: "ctrl", "shift+right". Scroll buttons (4-7) and beyond are
//     ignored: scroll deltas are not captured.
//   - typed characters: one fill with the committed text (type text),
//     committed by a button press, Tab, Enter, a chord, another window
//     receiving keys, or the end of capture. Backspace edits the buffer;
//     cursor keys are not modelled (the text is what was typed, in order).
//   - Enter: commits a fill, then submit.
//   - ctrl+c, ctrl+shift+c, ctrl+insert: copy; ctrl+v, ctrl+shift+v,
//     shift+insert: paste; any other chord with ctrl, alt or super, and
//     Escape or a function key alone: run with value {"ctrl+s", enum}.
//     copy and paste carry their chord too, as terminals use other ones.
//
// A single click is held until DoubleClickTime has passed (Tick) or the next
// input arrives, so that a double click is one step.
type Assembler struct {
	mods  uint8
	caps  bool
	fill  *pendingFill
	click *pendingClick
	out   []Assembled
}

type pendingFill struct {
	text []rune
	at   time.Time
	x, y int
	win  Window
}

type pendingClick struct {
	at     time.Time
	x, y   int
	win    Window
	mods   uint8
	enrich *events.Enrichment
}

// Add takes r and returns the steps it completes, oldest first. The slice is
// reused by the next call.
func (f *Assembler) Add(r Raw) []Assembled {
	f.out = f.out[:0]
	switch r.Kind {
	case ButtonPress:
		f.button(r)
	case KeyPress:
		f.keyPress(r)
	case KeyRelease:
		if bit, ok := keys.ModifierOf(r.Sym); ok {
			f.mods &^= bit
		}
	}
	return f.out
}

// Deadline returns when a held single click becomes final, if one is held.
func (f *Assembler) Deadline() (time.Time, bool) {
	if f.click == nil {
		return time.Time{}, false
	}
	return f.click.at.Add(DoubleClickTime), true
}

// Tick emits a held single click whose double-click window has passed by now.
func (f *Assembler) Tick(now time.Time) []Assembled {
	f.out = f.out[:0]
	if f.click != nil && !now.Before(f.click.at.Add(DoubleClickTime)) {
		f.flushClick("")
	}
	return f.out
}

// Flush emits whatever is pending (a held click, an uncommitted fill): the
// capture is ending.
func (f *Assembler) Flush() []Assembled {
	f.out = f.out[:0]
	f.flushClick("")
	f.commitFill()
	return f.out
}

func (f *Assembler) button(r Raw) {
	var kind string
	switch r.Button {
	case 1:
	case 2:
		kind = "middle"
	case 3:
		kind = "right"
	default:
		return // scroll, back/forward: not intentful steps here
	}
	// A press anywhere is a focus change: the field typed into is done.
	f.commitFill()
	if c := f.click; c != nil && r.Button == 1 && r.Time.Sub(c.at) < DoubleClickTime &&
		abs(r.X-c.x) <= DoubleClickDistance && abs(r.Y-c.y) <= DoubleClickDistance {
		f.flushClick("double")
		return
	}
	f.flushClick("")
	c := &pendingClick{at: r.Time, x: r.X, y: r.Y, win: r.Window, mods: f.mods, enrich: r.Enrichment}
	if r.Button == 1 {
		f.click = c // held: it may become a double click
		return
	}
	f.emitClick(c, kind)
}

func (f *Assembler) flushClick(kind string) {
	if c := f.click; c != nil {
		f.click = nil
		f.emitClick(c, kind)
	}
}

func (f *Assembler) emitClick(c *pendingClick, kind string) {
	parts := modNames(c.mods)
	if kind != "" {
		parts = append(parts, kind)
	}
	var v *events.Value
	if len(parts) > 0 {
		v = &events.Value{Raw: strings.Join(parts, "+"), Type: events.ValueEnum}
	}
	f.emit(events.ActionClick, v, c.at, c.x, c.y, c.win, c.enrich)
}

func (f *Assembler) keyPress(r Raw) {
	if bit, ok := keys.ModifierOf(r.Sym); ok {
		f.mods |= bit
		if r.Sym == keys.KeyCapsLock {
			f.caps = !f.caps
		}
		return
	}
	f.flushClick("")
	if f.fill != nil && r.Window.ID != f.fill.win.ID {
		f.commitFill() // keys now go to another window
	}
	chordMods := f.mods &^ keys.ModShift
	sym := r.Sym
	switch {
	case chordMods != 0 || (f.mods == keys.ModShift && sym == keys.KeyInsert):
		f.chord(r)
	case sym == keys.KeyReturn || sym == keys.KeyKPEnter:
		f.commitFill()
		f.emit(events.ActionSubmit, nil, r.Time, r.X, r.Y, r.Window, nil)
	case sym == keys.KeyTab || sym == keys.KeyISOLeftTab:
		f.commitFill()
	case sym == keys.KeyBackSpace:
		fl := f.startFill(r)
		if n := len(fl.text); n > 0 {
			fl.text = fl.text[:n-1]
		}
	case sym == keys.KeyEscape || (sym >= keys.KeyF1 && sym <= keys.KeyF12+12):
		f.chord(r)
	default:
		if ch, ok := keys.RuneOf(f.level(r)); ok {
			fl := f.startFill(r)
			fl.text = append(fl.text, ch)
		}
		// Cursor keys, Delete, Home...: editing we do not model.
	}
}

// level picks the keysym Shift and Caps Lock select, as X does for a
// two-column mapping: Caps Lock shifts letters only.
func (f *Assembler) level(r Raw) keys.Keysym {
	shift := f.mods&keys.ModShift != 0
	if f.caps && keys.Upper(r.Sym) != r.Sym {
		shift = !shift
	}
	if shift && r.Shifted != 0 {
		return r.Shifted
	}
	return r.Sym
}

func (f *Assembler) chord(r Raw) {
	f.commitFill()
	name := keys.NameOf(r.Sym)
	if name == "" {
		return // a key with no name (a media key...): nothing to replay
	}
	chord := strings.Join(append(modNames(f.mods), name), "+")
	action := events.ActionRun
	switch chord {
	case "ctrl+c", "ctrl+shift+c", "ctrl+insert":
		action = events.ActionCopy
	case "ctrl+v", "ctrl+shift+v", "shift+insert":
		action = events.ActionPaste
	}
	f.emit(action, &events.Value{Raw: chord, Type: events.ValueEnum}, r.Time, r.X, r.Y, r.Window, nil)
}

func (f *Assembler) startFill(r Raw) *pendingFill {
	if f.fill == nil {
		f.fill = &pendingFill{at: r.Time, x: r.X, y: r.Y, win: r.Window}
	}
	return f.fill
}

func (f *Assembler) commitFill() {
	fl := f.fill
	if fl == nil {
		return
	}
	f.fill = nil
	// A password field cannot be told from X alone: the value is text, and
	// enrichment or redaction may mark it secret later.
	v := &events.Value{Raw: string(fl.text), Type: events.ValueText}
	f.emit(events.ActionFill, v, fl.at, fl.x, fl.y, fl.win, nil)
}

func (f *Assembler) emit(action string, v *events.Value, at time.Time, x, y int, win Window, enr *events.Enrichment) {
	f.out = append(f.out, Assembled{At: at, Step: events.Step{
		TS:           events.Stamp(at),
		Actor:        events.ActorHuman,
		Action:       action,
		Cursor:       []int{x, y},
		ActiveApp:    win.App,
		ActiveWindow: win.Title,
		Enrichment:   enr,
		Value:        v,
		Outcome:      events.OutcomeOK,
	}})
}

// modNames names held modifiers in the usual order: ctrl+alt+shift+super.
func modNames(m uint8) []string {
	var out []string
	for _, mn := range []struct {
		bit  uint8
		name string
	}{{keys.ModCtrl, "ctrl"}, {keys.ModAlt, "alt"}, {keys.ModShift, "shift"}, {keys.ModSuper, "super"}} {
		if m&mn.bit != 0 {
			out = append(out, mn.name)
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
