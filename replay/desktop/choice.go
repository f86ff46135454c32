package desktop

import (
	"context"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// choiceStep says whether st sets a choice: a select (a combo box's, a
// list box's option) or a click that must leave a check box checked or
// not. Such a step acts only through the tree's Chooser, on the element
// the tree proved to be the step's, and is read back there: never by a
// click at a recorded point, which proves nothing about what was chosen.
func choiceStep(st replay.Step) bool {
	return st.Action == events.ActionSelect || boxStep(st)
}

// boxStep says whether st is a click that sets a check box's state. A
// radio button's click (read back checked too) is not: clicking it again
// leaves it checked, and it is pressed as before.
func boxStep(st replay.Step) bool {
	return st.Action == events.ActionClick && st.ReadBack != nil && st.ReadBack.Kind == skills.ReadBackChecked &&
		(st.ReadBack.Expect == "true" || st.ReadBack.Expect == "false") && !strings.Contains(strings.ToLower(st.Role), "radio")
}

// choiceReadBack bounds how long a choice is read until it holds what was
// set: the toolkit applies a selection on its main loop.
const choiceReadBack = 2 * time.Second

// actChoice sets the choice st names on el and reads it back. done is true
// whatever happened: no other strategy may set a choice.
func (e *Executor) actChoice(ctx context.Context, st replay.Step, el ax.Element, tried []replay.Attempt) (replay.Outcome, bool, error) {
	out := replay.Outcome{OK: true, Via: replay.ViaAX, Selector: -1, Tried: tried}
	what := "select " + st.Label
	if st.Action == events.ActionClick {
		what = "check box " + st.Label
	}
	// Proven by role as well as name: a combo box named Country is not a
	// text box named Country.
	if st.Role != "" && el.Role != st.Role {
		out := missed(st, "step %d (%s): the element found is a %s, not the recorded %s: not acting on it", st.Index+1, what, el.Role, st.Role)
		out.Tried = tried
		return out, true, nil
	}
	chooser, ok := e.o.AX.(ax.Chooser)
	if !ok {
		return failedAfter(out, "step %d (%s): this accessibility tree cannot set or read a choice", st.Index+1, what), true, nil
	}
	if err := e.allow(ctx, st, Intent{Kind: st.Action, Window: st.Floor.ActiveWindow, Role: el.Role}); err != nil {
		return replay.Outcome{}, true, err
	}
	defer e.sent()
	now, err := chooser.Choice(ctx, el)
	if err != nil {
		return failedAfter(out, "step %d (%s): the choice cannot be read: %v", st.Index+1, what, err), true, nil
	}
	if boxStep(st) {
		return e.setChecked(ctx, st, el, chooser, now, out, what)
	}
	want := st.Value
	if now.Checkable || ax.OptionIndex(now.Options, want) < 0 {
		// The row's cell was mapped onto a recorded option before the
		// run: the control offers other options now.
		out := failedAfter(out, "step %d (%s): the control offers no option %q (it has %d options): the app changed since the recording", st.Index+1, what, want, len(now.Options))
		out.Error = st.Mask(out.Error)
		return out, true, nil
	}
	if now.Selected != want {
		if err := chooser.Choose(ctx, el, want); err != nil {
			out := failedAfter(out, "step %d (%s): the option was not taken: %v", st.Index+1, what, err)
			out.Error = st.Mask(out.Error)
			return out, true, nil
		}
	}
	got, held := e.readChoice(ctx, chooser, el, func(c ax.Choice) bool { return c.Selected == want })
	if !held {
		out := failedAfter(out, "step %d (%s): read-back: the control holds %q, not the row's option", st.Index+1, what, got.Selected)
		out.Error = st.Mask(out.Error)
		return out, true, nil
	}
	return out, true, nil
}

// setChecked clicks the box only when its state is not the step's, then
// reads the state back.
func (e *Executor) setChecked(ctx context.Context, st replay.Step, el ax.Element, chooser ax.Chooser, now ax.Choice, out replay.Outcome, what string) (replay.Outcome, bool, error) {
	want := st.ReadBack.Expect == "true"
	if !now.Checkable {
		return failedAfter(out, "step %d (%s): the element has no checked state to set", st.Index+1, what), true, nil
	}
	if now.Checked != want {
		if err := e.o.AX.Press(ctx, el); err != nil {
			return failedAfter(out, "step %d (%s): the box did not take the click: %v", st.Index+1, what, err), true, nil
		}
	}
	if _, held := e.readChoice(ctx, chooser, el, func(c ax.Choice) bool { return c.Checked == want }); !held {
		return failedAfter(out, "step %d (%s): read-back: the box is not %s", st.Index+1, what, map[bool]string{true: "checked", false: "unchecked"}[want]), true, nil
	}
	return out, true, nil
}

// readChoice reads el until ok holds it or choiceReadBack has passed.
func (e *Executor) readChoice(ctx context.Context, chooser ax.Chooser, el ax.Element, ok func(ax.Choice) bool) (ax.Choice, bool) {
	deadline := time.Now().Add(choiceReadBack)
	for {
		c, err := chooser.Choice(ctx, el)
		if err == nil && ok(c) {
			return c, true
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return c, false
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}
