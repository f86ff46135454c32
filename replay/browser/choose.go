package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// chooseWait is how long a popup may take to open or fill (suggestions
// come from the server), and a chosen option to show.
const chooseWait = 8 * time.Second

// maxRetypes is how often an autocomplete is typed again when a click on
// its suggestion did not take and the list closed: a list re-rendered
// under the pointer, a person would type again.
const maxRetypes = 2

// plan is page.js's next move of a person choosing an option: done, fail
// (a reason that never quotes the value), click an option, open the list,
// type into an autocomplete, clear it, or wait for the list to fill.
type plan struct {
	Done  bool        `json:"done"`
	Fail  string      `json:"fail"`
	Click *clickPoint `json:"click"`
	Open  *clickPoint `json:"open"`
	Type  bool        `json:"type"`
	Clear bool        `json:"clear"`
	Wait  bool        `json:"wait"`
	// Empty says an autocomplete shows no suggestion at all.
	Empty bool `json:"empty"`
	// Enter picks the list's active option with the keyboard: it names
	// the wanted option where no option the pointer could reach does.
	Enter bool `json:"enter"`
	// Key is a key to press in the list (ArrowDown), to make the next
	// option active.
	Key string `json:"key"`
}

// known lists the step's recorded options, labels and values: a combobox
// whose list is out of the page is read against them.
func known(opts []skills.Option) []string {
	out := make([]string, 0, 2*len(opts))
	for _, o := range opts {
		out = append(out, o.Label)
		if o.Value != "" {
			out = append(out, o.Value)
		}
	}
	return out
}

// choose picks the option st.Value names in the group found, the way a
// person does: a native select's option is selected (input and change
// fire); a radio, an ARIA radio or a listbox's option is clicked; a
// select-only combobox or a menu button is opened, then its option
// clicked; an autocomplete gets the option's label typed key by key, then
// its matching suggestion clicked. The choice is then read back. An empty
// value picks the list's empty option, or wants none chosen. Nothing that
// fails here names the value, only the control's label.
func (e *Executor) choose(ctx context.Context, st replay.Step) error {
	args := map[string]any{"value": st.Value, "known": known(st.Options), "phase": ""}
	deadline := time.Now().Add(chooseWait)
	clicked, retypes, arrows := false, 0, 0
	for moves := 0; ; {
		p, err := chromedp.Run(ctx, pageOp[plan](e.world, "choose", args))
		if err != nil {
			return err
		}
		switch {
		case p.Done:
			return e.confirmChoice(ctx, st)
		case p.Enter:
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				return err
			}
			return e.confirmChoice(ctx, st)
		case p.Key == "ArrowDown" && arrows < maxArrows:
			// One option down the list; a move only once the list ends.
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
				return err
			}
			arrows++
			if args["phase"] != "typed" { // an autocomplete keeps what was typed
				args["phase"] = "arrowed"
			}
			deadline = time.Now().Add(chooseWait)
			continue
		case p.Key != "":
			return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
		case p.Click != nil:
			if err := e.press(ctx, *p.Click, "clickoption"); err != nil {
				return err
			}
			// A list may move under the pointer as it takes the focus (it
			// selects its first option and scrolls to it), so the click
			// lands on another option: a person sees that and clicks
			// again, and so does this, where the option is now.
			held, err := e.choiceHeld(ctx, st, clickSettle)
			if err != nil || held {
				return err
			}
			clicked = true
			if moves >= 2 && (args["phase"] != "typed" || moves >= 4) {
				return e.confirmChoice(ctx, st)
			}
		case p.Wait && p.Empty && clicked && retypes < maxRetypes:
			// The click on a suggestion did not take and the list is gone:
			// type the value again, as a person would.
			clicked, retypes, moves = false, retypes+1, 0
			args["phase"] = ""
			continue
		case p.Wait:
			if time.Now().After(deadline) {
				return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			continue
		case p.Fail != "":
			return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
		case moves >= 3:
			return failure(fmt.Sprintf("%s: the list did not respond as a list of options does", stepRef(st)))
		case p.Open != nil:
			if err := e.press(ctx, *p.Open, "click"); err != nil {
				return err
			}
			args["phase"] = "opened"
		case p.Type, p.Clear:
			fo, err := e.focus(ctx)
			if err != nil {
				return err
			}
			if !fo.Focused {
				return failure(fmt.Sprintf("%s: the field does not take the keyboard's focus", stepRef(st)))
			}
			keys := st.Value
			if p.Clear || keys == "" {
				keys = kb.Backspace
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(keys)); err != nil {
				return err
			}
			if p.Clear {
				return e.confirmChoice(ctx, st)
			}
			args["phase"] = "typed"
		default:
			return failure(fmt.Sprintf("%s: the list did not respond as a list of options does", stepRef(st)))
		}
		moves++
		deadline = time.Now().Add(chooseWait)
	}
}

// maxArrows bounds the options walked by the keyboard in one list.
const maxArrows = 200

// clickSettle is how long a clicked option has to show as chosen before
// the click counts as landed elsewhere.
const clickSettle = 500 * time.Millisecond

// confirmChoice reads the group back until it shows st.Value chosen, and
// nothing else, for up to chooseWait: a page may update it a moment later.
func (e *Executor) confirmChoice(ctx context.Context, st replay.Step) error {
	held, err := e.choiceHeld(ctx, st, chooseWait)
	if err == nil && !held {
		err = failure(fmt.Sprintf("%s: read-back failed: the list does not show the option chosen (the page may have changed it)", stepRef(st)))
	}
	return err
}

// choiceHeld reads the group back for up to wait, and reports whether it
// shows st.Value chosen, and nothing else.
func (e *Executor) choiceHeld(ctx context.Context, st replay.Step, wait time.Duration) (bool, error) {
	args := map[string]any{"kind": skills.ReadBackSelected, "expect": st.Value, "known": known(st.Options)}
	deadline := time.Now().Add(wait)
	for {
		got, err := chromedp.Run(ctx, pageOp[string](e.world, "readback", args))
		if err != nil {
			return false, err
		}
		switch {
		case got == "held":
			return true, nil
		case got == "stale":
			// The page replaced the list as it took the choice: find it again.
			var again replay.Outcome
			if f, ferr := e.find(ctx, st, true, &again); ferr != nil || f.Hit < 0 {
				return false, failure(fmt.Sprintf("%s: read-back: the list left the page", stepRef(st)))
			}
		case time.Now().After(deadline):
			return false, nil
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// listShut waits, a moment, for a list still open after its choice to
// close, as a person watches it go before the next field: a click there
// meanwhile lands on the list (antd's Select, shut a few frames after its
// Enter, took the click meant for the box below it). A list that stays
// open is left so: closing it is no part of the choice.
func (e *Executor) listShut(ctx context.Context) error {
	for deadline := time.Now().Add(clickSettle); ; {
		open, err := chromedp.Run(ctx, pageOp[bool](e.world, "listopen", nil))
		if err != nil || !open || time.Now().After(deadline) {
			return err
		}
		if err := sleep(ctx, 20*time.Millisecond); err != nil {
			return err
		}
	}
}
