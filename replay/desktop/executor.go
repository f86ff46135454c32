package desktop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/keys"
	"github.com/reprise-dev/reprise/platform/marks"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// Options configure an Executor.
type Options struct {
	// AX, if set, is tried first for every step with a role or label.
	AX ax.Tree
	// Input is the floor: synthetic input at the recorded point.
	Input input.Input
	// FindTimeout is how long a step waits for its window and element to
	// appear (an app reopening its form). Default 5 s.
	FindTimeout time.Duration
	// Quiet is how long the person must have left the machine alone before
	// a step runs: replay never fights a person for the mouse. Default 5 s
	// (DefaultQuiet); negative turns the wait off.
	Quiet time.Duration
	// Recorded returns a step's recorded pre-action frame (PNG) and Screen
	// grabs the screen now: with both, input goes to a recorded point only
	// when the area around it still looks as recorded.
	Recorded func(ctx context.Context, ref string) ([]byte, error)
	Screen   func() (image.Image, error)
	// OCR, with Screen, reads a field filled by input back from the screen.
	OCR func(ctx context.Context, png []byte) (string, error)
	// Guard, if set, authorizes every input right before it is sent.
	Guard Guard
	// Lease, if set, is held for a whole row: from the row's first step
	// that sends input to its commit (its last step), or to its first
	// step that did not go through. One replay at a time sends input to a
	// desktop, a row at a time; checks before a row's first input run
	// without it.
	Lease *Lease
	// LeaseWait is how long a step waits for another replay's row to end
	// before it fails, nothing sent. Default DefaultLeaseWait.
	LeaseWait time.Duration
	// Marks, if set, shows where each input lands just before it is sent,
	// labelled with MarkSkill and the step (never the typed text).
	Marks     marks.Overlay
	MarkSkill string
	Logger    *slog.Logger
}

// Guard authorizes each input right before it reaches the desktop: the
// scope grant (package computer) refuses reprise's own windows, the
// person's deny list, any window while a password is being typed, and
// everything once the person pressed Stop. A refusal ends the replay with
// nothing sent.
type Guard interface {
	Allow(ctx context.Context, in Intent) error
}

// Intent is one input about to be sent, addressed as the executor sends
// it: the very request the computer service's guard is asked on.
type Intent = api.Intent

// allow asks the guard, if any.
func (e *Executor) allow(ctx context.Context, st replay.Step, in Intent) error {
	if e.o.Guard == nil {
		return nil
	}
	if err := e.o.Guard.Allow(ctx, in); err != nil {
		return fmt.Errorf("step %d (%s): refused by the scope grant: %w", st.Index+1, in.Kind, err)
	}
	return nil
}

// Executor replays desktop steps. It is not safe for concurrent use.
type Executor struct {
	o        Options
	mu       sync.Mutex
	closed   bool
	lastSent time.Time     // our own last input, which idle time also counts
	filled   []filledField // the fields the row has set so far
	lease    rowLease      // the desktop, while a row holds it
}

// filledField is a field a row set: through the tree (el) or by input at pt.
type filledField struct {
	el    *ax.Element
	pt    image.Point
	value string
}

var _ replay.Executor = (*Executor)(nil)

// markLabel is a mark's label: the skill and the step, never a value.
func (e *Executor) markLabel(st replay.Step) string {
	return fmt.Sprintf("%s: step %d (%s)", e.o.MarkSkill, st.Index+1, st.Action)
}

// showMark shows m, if marks are on; a mark that cannot be drawn is
// logged, and the step goes on without it.
func (e *Executor) showMark(st replay.Step, m marks.Mark) {
	if e.o.Marks == nil || m.Box.Empty() {
		return
	}
	if err := e.o.Marks.Show(m); err != nil {
		e.o.Logger.Debug("mark not shown", "step", st.Index+1, "err", err)
	}
}

// DefaultQuiet is how long nobody must have used the pointer or keyboard
// before a step sends input.
const DefaultQuiet = 5 * time.Second

// New returns an executor; Input is required.
func New(o Options) (*Executor, error) {
	if o.Input == nil {
		return nil, errors.New("desktop executor: no input")
	}
	if o.FindTimeout <= 0 {
		o.FindTimeout = 5 * time.Second
	}
	if o.Quiet == 0 {
		o.Quiet = DefaultQuiet
	}
	if o.LeaseWait <= 0 {
		o.LeaseWait = DefaultLeaseWait
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Executor{o: o}, nil
}

// Do runs one step: through the accessibility tree where its element is
// found exactly once, else by input at its recorded point. The desktop
// lease is held for the step's whole row (Options.Lease).
func (e *Executor) Do(ctx context.Context, st replay.Step) (out replay.Outcome, err error) {
	if e.isClosed() {
		return replay.Outcome{}, errors.New("desktop executor: closed")
	}
	if err := ctx.Err(); err != nil {
		return replay.Outcome{}, err
	}
	e.rowStarts(st)
	defer func() { e.rowEnds(st, out, err) }()
	if st.Index == 0 {
		e.filled = nil // a new row
	}
	if st.Secret {
		return failed(replay.ErrNeedsPerson.Error()+": step %d fills a password field, which replay never types", st.Index+1), nil
	}
	if out, ok, err := e.holdFor(ctx, st); !ok {
		return out, err
	}
	return e.do(ctx, st)
}

// do runs st, its row holding the lease when it needs it.
func (e *Executor) do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	if err := e.waitForQuiet(ctx); err != nil {
		return replay.Outcome{}, err
	}
	if st.When != nil {
		held, _, err := replay.Poll(ctx, *st.When, st.When.Wait(skills.WhenWithin), e.reader(st))
		if err != nil {
			return replay.Outcome{}, err
		}
		if !held {
			return replay.Outcome{OK: true, Skipped: true, Selector: -1}, nil
		}
	}
	switch st.Action {
	case skills.ActionExpect:
		return e.expect(ctx, st)
	case events.ActionClick, events.ActionFill, events.ActionSubmit, events.ActionRun, events.ActionCopy, events.ActionPaste, events.ActionSelect:
	case events.ActionFocusWindow:
		if err := e.allow(ctx, st, Intent{Kind: "focus_window", Window: st.Floor.ActiveWindow}); err != nil {
			return replay.Outcome{}, err
		}
		if err := e.o.Input.Activate(st.Floor.ActiveWindow); err != nil {
			return failed("step %d: %v", st.Index+1, err), nil
		}
		return replay.Outcome{OK: true, Selector: -1}, nil
	case events.ActionWait, events.ActionAssert:
		return replay.Outcome{OK: true, Selector: -1}, nil
	default:
		return failed("step %d: the desktop executor cannot %s", st.Index+1, st.Action), nil
	}
	if st.DryRun && st.Destructive {
		return replay.Outcome{OK: true, Selector: -1}, nil
	}
	if st.Action == events.ActionRun || st.Action == events.ActionCopy || st.Action == events.ActionPaste {
		return e.chord(ctx, st)
	}
	// The target first, then the recorded role and label, then the floor:
	// each hands on what it tried.
	out, done, err := e.viaTarget(ctx, st)
	if err != nil || done {
		return out, err
	}
	out, done, err = e.viaAX(ctx, st, out.Tried)
	if err != nil || done {
		return out, err
	}
	return e.viaInput(ctx, st, out.Tried)
}

// sendsInput says whether a step of action may send input (or move the
// focus): such a step holds the desktop lease.
func sendsInput(action string) bool {
	switch action {
	case skills.ActionExpect, events.ActionWait, events.ActionAssert:
		return false
	}
	return true
}

// viaAX acts through the accessibility tree on the element with the step's
// recorded role and label; done is false when it was not found exactly
// once (the floor goes next). tried is what went before.
func (e *Executor) viaAX(ctx context.Context, st replay.Step, tried []replay.Attempt) (replay.Outcome, bool, error) {
	if e.o.AX == nil || (st.Label == "" && st.Role == "") {
		return replay.Outcome{Selector: -1, Tried: tried}, false, nil
	}
	var found []ax.Element
	deadline := time.Now().Add(e.o.FindTimeout)
	for {
		els, err := e.o.AX.Find(ctx, st.Floor.ActiveWindow, st.Role, st.Label)
		if err != nil {
			e.o.Logger.Debug("accessibility lookup failed", "step", st.Index+1, "err", err)
		}
		found = els
		if len(found) == 1 || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	tried = append(tried, replay.Attempt{Strategy: "ax", Matches: len(found)})
	if len(found) != 1 {
		return replay.Outcome{Selector: -1, Tried: tried}, false, nil
	}
	return e.act(ctx, st, found[0], tried)
}

// act does the step to el, an element the tree found exactly once; done is
// false when el will not take the action (the next strategy may).
func (e *Executor) act(ctx context.Context, st replay.Step, el ax.Element, tried []replay.Attempt) (replay.Outcome, bool, error) {
	if choiceStep(st) {
		return e.actChoice(ctx, st, el, tried)
	}
	out := replay.Outcome{OK: true, Via: replay.ViaAX, Selector: -1, Tried: tried}
	if !(st.Action == events.ActionClick && el.Role == "textbox") {
		in := Intent{Kind: st.Action, Window: st.Floor.ActiveWindow, Role: el.Role}
		if st.Action == events.ActionFill {
			in.TextLen = len([]rune(st.Value))
		}
		if err := e.allow(ctx, st, in); err != nil {
			return replay.Outcome{}, true, err
		}
	}
	var err error
	switch st.Action {
	case events.ActionFill:
		if err = e.o.AX.Fill(ctx, el, st.Value); err == nil && st.ReadBack != nil {
			var got string
			if got, err = e.o.AX.Text(ctx, el); err == nil && got != st.ReadBack.Expect {
				return failedAfter(out, "step %d (fill %s): read-back: the field does not hold the value", st.Index+1, st.Label), true, nil
			}
		}
		if err == nil {
			e.filled = append(e.filled, filledField{el: &el, value: st.Value})
		}
	case events.ActionClick:
		if el.Role == "textbox" {
			// A click into a field only gives it the focus, and the fill
			// that follows sets its text through the tree; a field's
			// "activate" action would press the dialog's default button.
			break
		}
		err = e.o.AX.Press(ctx, el)
	default:
		err = e.o.AX.Press(ctx, el)
	}
	if err != nil {
		// The element is there but will not take the action: the next
		// strategy may.
		e.o.Logger.Debug("accessibility action failed; trying the next way", "step", st.Index+1, "err", err)
		return replay.Outcome{Selector: -1, Tried: tried}, false, nil
	}
	if st.Destructive {
		return e.tookEffect(ctx, st, out), true, nil
	}
	return out, true, nil
}

// viaInput clicks (and types) at the step's recorded point, once the
// accessibility tree proved the element there is the step's (checkPoint).
func (e *Executor) viaInput(ctx context.Context, st replay.Step, tried []replay.Attempt) (replay.Outcome, error) {
	if len(st.Floor.Cursor) != 2 {
		where := "not found in the accessibility tree (" + describe(tried) + ")"
		if e.o.AX == nil {
			where = "no accessibility tree to look in here"
		}
		out := missed(st, "step %d (%s %s): %s and no recorded point to fall back on", st.Index+1, st.Action, st.Label, where)
		out.Tried = append(tried, replay.Attempt{Strategy: "recorded point", Matches: 0})
		return out, nil
	}
	if choiceStep(st) {
		out := missed(st, "step %d (%s %s): not found in the accessibility tree (%s): a choice is set and read back only there, never by clicks at a recorded point", st.Index+1, st.Action, st.Label, describe(tried))
		out.Tried = tried
		return out, nil
	}
	x, y := st.Floor.Cursor[0], st.Floor.Cursor[1]
	defer e.sent()
	if w := st.Floor.ActiveWindow; w != "" {
		if err := e.allow(ctx, st, Intent{Kind: "focus_window", Window: w}); err != nil {
			return replay.Outcome{}, err
		}
		if err := e.o.Input.Activate(w); err != nil {
			return missed(st, "step %d (%s %s): the recorded window is not there: %v", st.Index+1, st.Action, st.Label, err), nil
		}
	}
	at, why := e.whereRecorded(ctx, st, image.Pt(x, y))
	if why != "" {
		out := missed(st, "step %d (%s %s): %s; not clicking blind", st.Index+1, st.Action, st.Label, why)
		out.Tried = tried
		return out, nil
	}
	// The element at the point must be the step's: a field that moved
	// leaves another control there, and a renamed button is not the
	// step's button.
	note, stop := e.checkPoint(ctx, st, at, tried)
	if stop != nil {
		return *stop, nil
	}
	x, y = at.X, at.Y
	in := Intent{Kind: st.Action, Point: &at}
	if st.Action == events.ActionFill {
		in.TextLen = len([]rune(st.Value)) // typed into the field this click focuses
	}
	if err := e.allow(ctx, st, in); err != nil {
		return replay.Outcome{}, err
	}
	e.showMark(st, marks.AtPoint(at, e.markLabel(st), e.o.MarkSkill))
	if err := e.o.Input.Click(x, y, 1); err != nil {
		return replay.Outcome{}, fmt.Errorf("click: %w", err)
	}
	if st.Action == events.ActionFill {
		// The app takes the focus the click gave before the keys arrive.
		time.Sleep(150 * time.Millisecond)
		selectAll, _ := keys.ParseChord("ctrl+a")
		if err := e.o.Input.Press(selectAll); err != nil {
			return replay.Outcome{}, err
		}
		if err := e.o.Input.Type(st.Value); err != nil {
			return failed("step %d (fill %s): %v", st.Index+1, st.Label, err), nil
		}
		if st.ReadBack != nil && !e.readsBack(ctx, image.Pt(x, y), st.ReadBack.Expect) {
			return failed("step %d (fill %s): read-back: the screen does not show the value where it was typed", st.Index+1, st.Label), nil
		}
		e.filled = append(e.filled, filledField{pt: image.Pt(x, y), value: st.Value})
	}
	out := replay.Outcome{OK: true, Via: replay.ViaFloor, Selector: -1, Tried: tried}
	if note != "" {
		out.Notes = append(out.Notes, note)
	}
	if st.Destructive {
		return e.tookEffect(ctx, st, out), nil
	}
	return out, nil
}

// fieldsTookEffect proves that the row's destructive step, which ran, took
// effect: every field the row filled is gone or no longer holds what was
// filled (the form closed or was cleared for the next one). Without that
// proof the step fails after it ran, and the engine reports the row
// unknown, never committed on faith: an app that ignored the click, or
// answered with an error and kept the values, looks just like that. An app
// that keeps the values after saving cannot be proved filed here either.
func (e *Executor) fieldsTookEffect(ctx context.Context, st replay.Step, out replay.Outcome) replay.Outcome {
	fields := e.filled
	e.filled = nil
	what := fmt.Sprintf("step %d (%s %s): ran, but", st.Index+1, st.Action, st.Label)
	if len(fields) == 0 {
		return failedAfter(out, "%s the row filled no field to tell by whether it took effect", what)
	}
	deadline := time.Now().Add(e.o.FindTimeout)
	for {
		changed, why := e.fieldsChanged(ctx, fields)
		if changed {
			out.Committed = true
			return out
		}
		if why != "" {
			return failedAfter(out, "%s %s", what, why)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return failedAfter(out, "%s the fields still hold the row's values after %s: nothing shows it was filed", what, e.o.FindTimeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// fieldsChanged reports whether every field left what was filled; why says
// when a field cannot be read at all, so no answer will come.
func (e *Executor) fieldsChanged(ctx context.Context, fields []filledField) (bool, string) {
	secret := 0
	for _, f := range fields {
		if f.el != nil {
			text, err := e.o.AX.Text(ctx, *f.el)
			if err == nil && text == f.value {
				return false, ""
			}
			continue // gone with its window, or cleared
		}
		fr, ok := e.o.Input.(fieldReader)
		if !ok {
			return false, "a field filled by input cannot be read back here to tell whether it took effect"
		}
		text, err := fr.FieldText(f.pt.X, f.pt.Y)
		switch {
		case errors.Is(err, input.ErrSecretField):
			secret++
		case errors.Is(err, input.ErrNotAField):
			// gone with its window: the form closed
		case err != nil:
			// A busy app does not answer in time: no proof either way yet.
			e.o.Logger.Debug("a filled field cannot be read yet", "err", err)
			return false, ""
		case text == f.value:
			return false, ""
		}
	}
	if secret == len(fields) {
		return false, "the row filled only password fields, which are never read back"
	}
	return true, ""
}

// failedAfter is a step that ran and could not be proved: not OK, with
// what was tried.
func failedAfter(out replay.Outcome, format string, args ...any) replay.Outcome {
	f := failed(format, args...)
	f.Via, f.Tried = out.Via, out.Tried
	return f
}

// whereRecorded finds where the step's recorded point is now: the recorded
// point itself while the area around it looks as in the recorded frame,
// else where that area moved with its window. It returns why not when the
// area is nowhere, and pt unchanged when it cannot check (no frame
// recorded, no way to grab the screen).
func (e *Executor) whereRecorded(ctx context.Context, st replay.Step, pt image.Point) (image.Point, string) {
	if e.o.Recorded == nil || e.o.Screen == nil || st.Floor.ScreenshotRef == "" {
		return pt, ""
	}
	b, err := e.o.Recorded(ctx, st.Floor.ScreenshotRef)
	if err != nil {
		e.o.Logger.Debug("no recorded frame to compare", "step", st.Index+1, "err", err)
		return pt, ""
	}
	recorded, err := decodePNG(b)
	if err != nil {
		return pt, ""
	}
	// A window just moved or raised may not have redrawn yet: the area is
	// looked for until FindTimeout, as an element is in the tree.
	var d float64
	for deadline := time.Now().Add(e.o.FindTimeout); ; {
		now, err := e.o.Screen()
		if err != nil {
			return pt, ""
		}
		if d = lookDiff(recorded, now, pt); d <= maxLookDiff {
			return pt, ""
		}
		if moved, ok := findPatch(recorded, now, pt); ok {
			e.o.Logger.Info("the recorded area moved; acting where it is now", "step", st.Index+1, "dx", moved.X-pt.X, "dy", moved.Y-pt.Y)
			return moved, ""
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
	return pt, fmt.Sprintf("the area around the recorded point looks different from the recording (%.0f%% changed) and is nowhere else on the screen", d*100)
}

// fieldReader is an Input that can read the field at a point itself (an
// edit control's text on Windows): exact, where OCR approximates.
type fieldReader interface {
	FieldText(x, y int) (string, error)
}

// readsBack reports whether the field at pt, where a value was typed,
// holds want: read by the Input where it can, else OCR of a strip of the
// screen around pt; true when it cannot be checked.
func (e *Executor) readsBack(ctx context.Context, pt image.Point, want string) bool {
	if fr, ok := e.o.Input.(fieldReader); ok {
		text, err := fr.FieldText(pt.X, pt.Y)
		// The app takes the keys a while after they are sent, longer on a
		// busy machine: the field is read until it holds want, or has not
		// changed for fieldSettle (the keys have all arrived). A busy app
		// that does not answer in time is asked again, until fieldReadCap.
		settled := time.Now().Add(fieldSettle)
		pending := func() bool {
			if err != nil {
				return !errors.Is(err, input.ErrNotAField) && !errors.Is(err, input.ErrSecretField)
			}
			return text != want && time.Now().Before(settled)
		}
		for cap := time.Now().Add(fieldReadCap); pending() && time.Now().Before(cap); {
			select {
			case <-ctx.Done():
				return false
			case <-time.After(100 * time.Millisecond):
			}
			prev := text
			if text, err = fr.FieldText(pt.X, pt.Y); text != prev {
				settled = time.Now().Add(fieldSettle)
			}
		}
		if err == nil {
			return text == want
		}
		e.o.Logger.Debug("the field cannot be read directly; trying OCR", "err", err)
	}
	if e.o.OCR == nil || e.o.Screen == nil {
		return true
	}
	// The app draws the typed text a moment after the keys arrive, and a
	// busy machine may take longer to draw than tesseract takes to read:
	// the strip is read each time it changes, until it holds want, or the
	// wait is over and it has been read settled (unchanged since the last
	// read) or three times (a caret blinks).
	var last []byte
	for deadline, reads := time.Now().Add(readBackWait), 0; ; {
		now, err := e.o.Screen()
		if err != nil {
			return true
		}
		// The field around the point, enlarged: tesseract reads a UI's
		// small type far better three times its size.
		strip := image.Rect(pt.X-120, pt.Y-16, pt.X+120, pt.Y+16).Intersect(now.Bounds())
		if strip.Empty() {
			return true
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, enlarge(now, strip, 3)); err != nil {
			return true
		}
		if bytes.Equal(buf.Bytes(), last) {
			if time.Now().After(deadline) {
				return false
			}
			select {
			case <-ctx.Done():
				return false
			case <-time.After(100 * time.Millisecond):
			}
			continue
		}
		if reads >= 3 && time.Now().After(deadline) {
			return false
		}
		last, reads = buf.Bytes(), reads+1
		text, err := e.o.OCR(ctx, last)
		if err != nil {
			return true
		}
		if shows(text, want) {
			return true
		}
	}
}

// readBackWait is how long a read-back waits for the screen to show a
// typed value once what it shows stops changing.
const readBackWait = 2 * time.Second

// fieldSettle is how long a field read directly must stay unchanged before
// a read-back that does not hold is final; fieldReadCap bounds the whole
// wait, for a field that keeps changing by itself.
const (
	fieldSettle  = 5 * time.Second
	fieldReadCap = 30 * time.Second
)

func (e *Executor) chord(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	c, err := keys.ParseChord(st.Value)
	if err != nil {
		return failed("step %d: %v", st.Index+1, err), nil
	}
	if err := e.allow(ctx, st, Intent{Kind: "press_keys", Keyboard: true}); err != nil {
		return replay.Outcome{}, err
	}
	defer e.sent()
	if err := e.o.Input.Press(c); err != nil {
		return replay.Outcome{}, err
	}
	return replay.Outcome{OK: true, Via: replay.ViaFloor, Selector: -1}, nil
}

// waitForQuiet holds a step while a person is using the machine: the idle
// time counts our own input too, so only input newer than ours is theirs.
func (e *Executor) waitForQuiet(ctx context.Context) error {
	if e.o.Quiet < 0 {
		return nil
	}
	told := false
	for {
		idle, err := e.o.Input.Idle()
		if err != nil {
			return nil // no way to tell: go on, as on a machine without a person
		}
		// Input from before this row took the lease from another replay
		// was that replay's, not a person's.
		ours := time.Since(e.lastSent)
		if since := e.leaseSince(); since.After(e.lastSent) {
			ours = time.Since(since)
		}
		if idle >= e.o.Quiet || idle+50*time.Millisecond >= ours {
			if told {
				e.o.Logger.InfoContext(ctx, "the person left the keyboard: replay goes on")
			}
			return nil
		}
		if !told {
			told = true
			e.o.Logger.InfoContext(ctx, "waiting for the person at the keyboard to stop", "idle", idle.Round(time.Millisecond), "want", e.o.Quiet)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(e.o.Quiet - idle):
		}
	}
}

func (e *Executor) sent() { e.lastSent = time.Now() }

// Verify is not supported on the desktop yet: a row caught mid-submit is
// reported unknown.
func (e *Executor) Verify(context.Context, skills.Verification) (bool, error) {
	return false, errors.New("the desktop executor cannot verify a row on a site")
}

// Snapshot saves the screen as the row left it (the first-run check's
// rows, filled and not submitted) to path as a PNG readable by its owner
// only: it shows the row's values. Without a way to grab the screen it
// says so.
func (e *Executor) Snapshot(_ context.Context, path string) error {
	if e.o.Screen == nil {
		return errors.New("the desktop executor has no way to grab the screen here: no snapshot")
	}
	img, err := e.o.Screen()
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return os.Chmod(path, 0o600) // WriteFile keeps an existing file's mode
}

func (e *Executor) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.closed {
		e.closed = true
		e.letGo()
		return e.o.Input.Close()
	}
	return nil
}

func (e *Executor) isClosed() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closed
}

func failed(format string, args ...any) replay.Outcome {
	return replay.Outcome{Selector: -1, Error: fmt.Sprintf(format, args...)}
}

// missed is the outcome of a step whose element was not found: no input
// went to it, so a step that files sent nothing (Watched, not Sent), and
// a model may find the element (ai: on_miss).
func missed(st replay.Step, format string, args ...any) replay.Outcome {
	out := failed(format, args...)
	out.Missed, out.Watched = true, st.Destructive
	return out
}

func describe(tried []replay.Attempt) string {
	var parts []string
	for _, a := range tried {
		parts = append(parts, fmt.Sprintf("%s: %d matches", a.Strategy, a.Matches))
	}
	if len(parts) == 0 {
		return "no label or role recorded"
	}
	return strings.Join(parts, "; ")
}
