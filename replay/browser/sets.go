package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/replay"
)

// manyPlan is page.js's next move of a person making a control hold a
// set: plan's moves, with the item to type and the phase it starts.
type manyPlan struct {
	plan
	Keys  string `json:"keys"`
	Phase string `json:"phase"`
	// Close says the set is right and its list is still open: Escape
	// closes it, as a person does before the next field.
	Close bool `json:"close"`
}

// chooseMany makes the choice found hold exactly the items st.Value lists
// (one per line): adding what is missing, removing what is there and not
// wanted (defaults too), one item at a time, as a person does; then the
// set is read back. Each move is bounded, and a list that stops answering
// fails the step; no message names an item.
func (e *Executor) chooseMany(ctx context.Context, st replay.Step) error {
	args := map[string]any{"value": st.Value, "phase": ""}
	deadline := time.Now().Add(chooseWait)
	// Each item takes a few moves (type, wait, click); a list that needs
	// more is not answering as a list does.
	budget := 6*(len(items(st.Value))+len(st.Options)) + 12
	arrows := 0
	for moves := 0; moves < budget; {
		p, err := chromedp.Run(ctx, pageOp[manyPlan](e.world, "choosemany", args))
		if err != nil {
			return err
		}
		if !p.Wait {
			moves++ // waiting for a list is no move
		}
		switch {
		case p.Done:
			if p.Close {
				if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
					return err
				}
			}
			return e.confirmSet(ctx, st)
		case p.Fail != "" && !p.Wait:
			return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
		case p.Wait:
			if time.Now().After(deadline) {
				return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
			}
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return err
			}
			continue
		case p.Key == "ArrowDown" && arrows < maxArrows:
			// One option down a list the pointer cannot reach by role.
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown)); err != nil {
				return err
			}
			arrows++
			moves-- // walking the list is no move
		case p.Key != "":
			return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
		case p.Enter:
			// The list names its active option only for the keyboard.
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				return err
			}
			args["phase"] = ""
			if err := e.settledSet(ctx); err != nil {
				return err
			}
		case p.Click != nil:
			if err := chromedp.Do(ctx, chromedp.MouseClickXY(p.Click.X, p.Click.Y)); err != nil {
				return err
			}
			// The next move types the next item, even one typed before.
			args["phase"] = ""
			if err := e.settledSet(ctx); err != nil {
				return err
			}
		case p.Open != nil:
			if err := e.press(ctx, *p.Open, "click"); err != nil {
				return err
			}
			args["phase"] = "opened"
		case p.Type:
			fo, err := e.focus(ctx)
			if err != nil {
				return err
			}
			if !fo.Focused {
				return failure(fmt.Sprintf("%s: the field does not take the keyboard's focus", stepRef(st)))
			}
			if err := chromedp.Do(ctx, chromedp.KeyEvent(p.Keys)); err != nil {
				return err
			}
			args["phase"] = p.Phase
		default:
			return failure(fmt.Sprintf("%s: the list did not respond as a list of options does", stepRef(st)))
		}
		deadline = time.Now().Add(chooseWait)
	}
	return failure(fmt.Sprintf("%s: the list did not come to hold the row's items", stepRef(st)))
}

// settledSet waits a moment after a click for the set to change: a page
// updates its chips after the click's own handlers ran.
func (e *Executor) settledSet(ctx context.Context) error {
	_, err := chromedp.Run(ctx, pageOp[bool](e.world, "settle", nil, chromedp.EvalAwaitPromise))
	return err
}

// confirmSet reads the set back until it holds exactly the row's items,
// for up to chooseWait: a page may update it a moment later.
func (e *Executor) confirmSet(ctx context.Context, st replay.Step) error {
	args := map[string]any{"kind": "set", "expect": st.Value}
	deadline := time.Now().Add(chooseWait)
	for {
		got, err := chromedp.Run(ctx, pageOp[string](e.world, "readback", args))
		if err != nil {
			return err
		}
		if got == "held" {
			return nil
		}
		if time.Now().After(deadline) {
			return failure(fmt.Sprintf("%s: read-back failed: the list does not hold the row's items (the page may have changed it)", stepRef(st)))
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return err
		}
	}
}

// fillDate types an ISO date into a date field in sections: each section
// in the field's own order gets its digits (month 03, day 15, year 2027),
// focused first, as a person clicks a section and types. The read back
// then compares the date the sections hold, as one value.
func (e *Executor) fillDate(ctx context.Context, st replay.Step) error {
	p, err := chromedp.Run(ctx, pageOp[datePlan](e.world, "datesections", map[string]any{"value": st.Value}))
	if err != nil {
		return err
	}
	if p.Fail != "" {
		return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
	}
	if len(p.Sections) == 0 {
		return failure(fmt.Sprintf("%s: the date field shows no sections to type into", stepRef(st)))
	}
	for _, s := range p.Sections {
		ok, err := chromedp.Run(ctx, pageOp[bool](e.world, "focussection", map[string]any{"index": s.Index}))
		if err != nil {
			return err
		}
		if !ok {
			return failure(fmt.Sprintf("%s: a section of the date does not take the keyboard's focus", stepRef(st)))
		}
		// No Backspace first: in an empty section it moves the focus back
		// to the one before (React Aria), and a section takes new digits
		// over what it held once focused anew.
		if err := chromedp.Do(ctx, chromedp.KeyEvent(s.Keys)); err != nil {
			return err
		}
	}
	return nil
}

// datePlan is page.js's reading of a date field in sections: its sections
// in order and the digits each takes, or why it cannot be typed.
type datePlan struct {
	Fail     string `json:"fail"`
	Sections []struct {
		Index int    `json:"index"`
		Keys  string `json:"keys"`
	} `json:"sections"`
}

func items(v string) []string {
	var out []string
	for _, s := range strings.Split(v, "\n") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
