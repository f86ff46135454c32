package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// failure is a step the page refused: it becomes an Outcome's Error, not a
// Go error.
type failure string

func (f failure) Error() string { return string(f) }

// stepRef names a step for a person, 1-based: step 7 (select "Plan").
func stepRef(st replay.Step) string {
	if st.Label != "" {
		return fmt.Sprintf("step %d (%s %q)", st.Index+1, st.Action, st.Label)
	}
	return fmt.Sprintf("step %d (%s)", st.Index+1, st.Action)
}

// Do runs one step. A step the page refused is an Outcome with OK false;
// the Go error is kept for a browser that is gone or a ctx that is done.
//
// A secret step is typed only with the answer the person gave the engine
// for it (the plan puts it in the step's value, never in the log); without
// one, Do returns OK false with an Error that starts with
// replay.ErrNeedsPerson's text, and a nil Go error. A destructive step in a dry run is
// found but not run: OK true, Committed false.
func (e *Executor) Do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	if e.tab.Err() != nil {
		return replay.Outcome{}, ErrClosed
	}
	start := time.Now()
	before := e.prevURL
	cctx, stop := e.bind(ctx)
	defer stop()
	url := e.nav.location()
	e.prevURL = url

	m, err := e.before(cctx, st)
	if err != nil {
		return replay.Outcome{}, err
	}
	out, err := e.do(cctx, st, before, url)
	if err != nil {
		if _, ok := err.(failure); !ok {
			if gerr := e.gone(ctx); gerr != nil {
				return out, fmt.Errorf("step %d (%s): %w", st.Index+1, st.Action, gerr)
			}
		}
		// The browser answers: the page refused the step. A protocol error
		// may quote the page's script, so only our own failures keep their
		// text.
		out.OK = false
		if f, ok := err.(failure); ok {
			out.Error = string(f)
		} else {
			out.Error = fmt.Sprintf("step %d (%s): the browser could not do it: %s", st.Index+1, st.Action, errKind(err))
		}
	}
	e.after(cctx, st, m, &out)
	e.log.DebugContext(ctx, "step", keyRow, st.Row, keyStep, st.Index+1, keyAction, st.Action,
		keyVia, out.Via, keySelector, out.Selector, keyOK, out.OK, keyMillis, time.Since(start).Milliseconds())
	return out, nil
}

// TypesSecrets says the browser types a secret step's answer (see Do).
func (e *Executor) TypesSecrets() bool { return true }

// choiceRoles are the roles of a step on a group of options: the step is
// found in group mode.
var choiceRoles = map[string]bool{"radiogroup": true, "listbox": true, "combobox": true, "menu": true}

// do runs st; prev is the URL before the previous step, url the one now.
func (e *Executor) do(ctx context.Context, st replay.Step, prev, url string) (replay.Outcome, error) {
	out := replay.Outcome{Selector: -1}
	if st.Secret && st.Value == "" {
		out.Error = fmt.Sprintf("%s: %s is a secret field; type it yourself, then go on", replay.ErrNeedsPerson, stepRef(st))
		return out, nil
	}
	if st.Wait != nil {
		if err := e.holds(ctx, skills.Conditions{*st.Wait}, condEnv{before: prev}, 10*time.Second); err != nil {
			return out, failure(fmt.Sprintf("%s: waiting before it: %v", stepRef(st), err))
		}
	}
	if st.When != nil {
		held, _, err := replay.Poll(ctx, *st.When, st.When.Wait(skills.WhenWithin), e.read)
		if err != nil {
			return out, err
		}
		if !held {
			out.OK, out.Skipped = true, true
			return out, nil
		}
	}
	switch st.Action {
	case skills.ActionExpect:
		wait := st.Expect.Wait(e.findTimeout)
		held, seen, err := replay.Poll(ctx, *st.Expect, wait, e.read)
		if err != nil {
			return out, err
		}
		if !held {
			return out, failure(st.Mask(fmt.Sprintf("%s: %s not seen within %s: %s", stepRef(st), st.Expect, wait, seen)))
		}
		out.OK = true
		return out, nil
	case "navigate":
		if host, ok := e.guard.allows(st.Value); !ok {
			return out, failure(fmt.Sprintf("step %d (navigate): %s is outside the skill's allowed domains; nothing was opened", st.Index+1, host))
		}
		if err := e.navigate(ctx, st.Value); err != nil {
			if le := (*chromedp.LoadError)(nil); errors.As(err, &le) {
				return out, failure(fmt.Sprintf("step %d (navigate): the page did not load: %s", st.Index+1, le.ErrorText))
			}
			return out, err
		}
		out.OK = true
		return out, nil
	case "wait":
		if st.Wait == nil {
			return out, failure(fmt.Sprintf("step %d (wait) has no condition", st.Index+1))
		}
		out.OK = true
		return out, nil
	case "assert":
		if len(st.Assert) == 0 {
			return out, failure(fmt.Sprintf("step %d (assert) has no condition", st.Index+1))
		}
		if err := e.holds(ctx, st.Assert, condEnv{before: prev, selectors: st.Selectors}, 10*time.Second); err != nil {
			return out, failure(fmt.Sprintf("step %d (assert): %v", st.Index+1, err))
		}
		out.OK = true
		return out, nil
	case "fill", "select", "click", "submit", "upload":
	default:
		return out, failure(fmt.Sprintf("step %d: the browser executor cannot %q", st.Index+1, st.Action))
	}

	// Before anything else, a navigation the previous step started must end.
	if err := e.waitLoaded(ctx, 10*time.Second); err != nil {
		return out, err
	}
	if st.Destructive {
		// The whole row read back right before the step that files it.
		held, notes, err := e.recheckRow(ctx, st)
		out.Notes = append(out.Notes, notes...)
		if err != nil {
			out.Watched = true // nothing was done: nothing was sent
			return out, err
		}
		out.ReadBack = held
	}
	group := st.Action == "select" || st.Action != "click" && choiceRoles[st.Role]
	f, err := e.find(ctx, st, group, &out)
	if err != nil {
		return out, err
	}
	// Not found, nothing done: a destructive step sent nothing.
	out.Watched = st.Destructive && (!f.Ready || f.Hit < 0)
	if !f.Ready {
		return out, failure(fmt.Sprintf("%s: the page did not finish loading", stepRef(st)))
	}
	if f.Hit < 0 {
		out.Missed = true
		return out, failure(st.Mask(notFound(st, out.Tried, group, e.findTimeout, f.Unproven)))
	}
	if st.Destructive && st.DryRun {
		out.OK = true // found, not run: a dry run commits nothing
		return out, nil
	}
	seq, _ := e.nav.state()
	if st.Destructive {
		e.net.mark()
	}
	if err := e.act(ctx, st, f); err != nil {
		if st.Destructive {
			e.sentBy(ctx, &out, url, false)
		}
		return out, err
	}
	if err := e.readBack(ctx, st); err != nil {
		return out, err
	}
	if st.Action == "click" && f.Kind != "toggle" && f.Kind != "choice" && f.Type != "radio" || st.Action == "submit" {
		if err := e.settle(ctx, seq, 10*time.Second); err != nil {
			return out, err
		}
	}
	if st.Destructive {
		return e.commit(ctx, st, url, out)
	}
	out.OK = true
	return out, nil
}

// act does st on the found element.
func (e *Executor) act(ctx context.Context, st replay.Step, f found) error {
	switch {
	case st.Action == "upload" || f.Tag == "input" && f.Type == "file" && st.Action == "fill":
		return e.upload(ctx, st)
	case f.Kind == "choice" && st.Multiple:
		return e.chooseMany(ctx, st)
	case f.Kind == "choice" && (st.Action == "select" || st.Action == "fill" && f.How != "autocomplete"):
		if err := e.choose(ctx, st); err != nil {
			return err
		}
		return e.listShut(ctx)
	case st.Action == "fill" && (f.How == "picker" || f.Kind == "action" && f.Tag != "input" && pickerPopup.MatchString(f.Popup)):
		// A date picked only in a calendar: its control is a button.
		return e.pickDate(ctx, st)
	case f.Kind == "date" && st.Action == "fill":
		return e.fillDate(ctx, st)
	case st.Action == "select":
		return failure(fmt.Sprintf("%s: the element is not a list of options", stepRef(st)))
	case st.Action == "fill" && (f.Kind == "toggle" || f.Type == "radio"), st.Action == "click":
		return e.click(ctx, st, f)
	case st.Action == "submit" && f.Tag != "form":
		// The person submitted by clicking this (a form's button, or a
		// dialog's Confirm outside the form that its handler submits):
		// clicking it runs the form's validation and handlers alike.
		return e.click(ctx, st, f)
	case st.Action == "submit":
		reason, err := chromedp.Run(ctx, pageOp[string](e.world, "submit", nil))
		if err == nil && reason != "" {
			err = failure(fmt.Sprintf("%s: %s", stepRef(st), reason))
		}
		return err
	}
	return e.fill(ctx, st, f)
}

// maxKeyed is the longest value typed key by key; a longer one is
// inserted whole. Scripts that react to each key (masks, counters) see a
// name or an address typed; a page of notes arrives as a paste would.
const maxKeyed = 200

// typed are the input types a person types into; the others (date, time,
// color, range...) take their value from a picker, so fill sets it.
var typed = map[string]bool{"": true, "text": true, "search": true, "email": true, "url": true,
	"tel": true, "number": true, "password": true}

// fill types the value as a person would: focus, select what is there,
// type it with real key events (keydown, keypress, input), leave the field
// (change). Fields without a keyboard entry, and text the keyboard cannot
// put in a one-line input (a line break would press Enter and submit), get
// the value through the native setter plus input and change events.
func (e *Executor) fill(ctx context.Context, st replay.Step, f found) error {
	canType := f.Editable || f.Tag == "textarea" || f.Tag == "input" && typed[f.Type] && !strings.ContainsAny(st.Value, "\r\n")
	if canType {
		fo, err := e.focus(ctx)
		if err != nil {
			return err
		}
		if fo.Focused {
			keys := st.Value
			if keys == "" && !fo.Empty {
				keys = kb.Backspace
			}
			if utf8.RuneCountInString(keys) > maxKeyed {
				// A long text is inserted as a paste is, in one input
				// event: typed key by key, 20 KB took minutes.
				if _, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: keys}); err != nil {
					return err
				}
				return chromedp.Do(ctx, pageOp[chromedp.Void](e.world, "blur", nil))
			}
			return chromedp.Do(ctx, chromedp.KeyEvent(keys), pageOp[chromedp.Void](e.world, "blur", nil))
		}
		// Focus did not reach the field (a frame that cannot take it): set it.
	}
	if f.Tag != "input" && f.Tag != "textarea" && !f.Editable {
		return failure(fmt.Sprintf("%s: the element is a %s, not a field", stepRef(st), f.Tag))
	}
	return chromedp.Do(ctx, pageOp[chromedp.Void](e.world, "set", map[string]string{"value": st.Value}))
}

type focusState struct {
	Focused bool `json:"focused"`
	Empty   bool `json:"empty"`
}

// focus focuses the found element and selects its text, so that typing
// replaces it.
func (e *Executor) focus(ctx context.Context) (focusState, error) {
	return chromedp.Run(ctx, pageOp[focusState](e.world, "focus", nil))
}

// clickPoint is where a person clicks an element, and whether a click
// there lands on it; State is a two-state control's state (true, false or
// "mixed"), null for others.
type clickPoint struct {
	X, Y  float64
	Lands bool `json:"lands"`
	State any  `json:"state"`
}

// press clicks with the mouse at p, as a person does, or, when something
// covers that point, with the DOM's click() through op.
func (e *Executor) press(ctx context.Context, p clickPoint, op string) error {
	if p.Lands {
		return chromedp.Do(ctx, chromedp.MouseClickXY(p.X, p.Y))
	}
	return chromedp.Do(ctx, pageOp[chromedp.Void](e.world, op, nil))
}

// click clicks the element as a person does. For a two-state control
// (checkbox, switch, toggle button), st.Value is the state it must end in
// ("true"/"false"): a control already in it is not clicked, and one
// clicked must reach it (a page may take a moment to update it).
func (e *Executor) click(ctx context.Context, st replay.Step, f found) error {
	var p clickPoint
	if f.Point != nil {
		p = *f.Point
	} else {
		var err error
		if p, err = chromedp.Run(ctx, pageOp[clickPoint](e.world, "point", nil)); err != nil {
			return err
		}
	}
	want, twoState := map[string]bool{"true": true, "false": false}[st.Value]
	twoState = twoState && f.Kind == "toggle"
	if twoState && p.State == want {
		return nil
	}
	if f.Type == "radio" && p.State == true {
		return nil
	}
	if err := e.press(ctx, p, "click"); err != nil || !twoState {
		return err
	}
	deadline := time.Now().Add(chooseWait) // a busy page may take its time
	for {
		state, err := chromedp.Run(ctx, pageOp[any](e.world, "checked", nil))
		if err != nil || state == want {
			return err
		}
		if time.Now().After(deadline) {
			return failure(fmt.Sprintf("%s: the control did not end in the wanted state", stepRef(st)))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// errKind keeps the kind of a browser error for a person, without the
// text that may quote the page or a value.
func errKind(err error) string {
	var ex *chromedp.ExceptionError
	if errors.As(err, &ex) {
		return "the page's script threw an exception"
	}
	if le := (*chromedp.LoadError)(nil); errors.As(err, &le) {
		return "load error " + le.ErrorText
	}
	return "protocol error"
}
