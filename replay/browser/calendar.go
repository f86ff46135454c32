package browser

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/replay"
)

// maxPages bounds the months a calendar is paged through for one date:
// fifty years, each month a click.
const maxPages = 600

// pickerPopup is the aria-haspopup of a control that may open a calendar:
// a fill step on such a button picks its date there. Any other button is
// never clicked for a fill.
var pickerPopup = regexp.MustCompile(`^(dialog|grid|true)$`)

// calendarPlan is page.js's next move of a person picking a date in a
// calendar (see pickDate there).
type calendarPlan struct {
	Done  bool        `json:"done"`
	Fail  string      `json:"fail"`
	Wait  bool        `json:"wait"`
	Open  *clickPoint `json:"open"`
	Click *clickPoint `json:"click"`
	// Rest is where the pointer goes once the day is clicked: off the
	// calendar, whose preview of the day under it is not a pick.
	Rest  *clickPoint `json:"rest"`
	Close bool        `json:"close"`
	Phase string      `json:"phase"`
}

// pickDate picks st.Value, an ISO date, in the calendar the control found
// opens, as a person does: it opens the calendar, reads the months it
// shows from its days' own names, turns the month with the calendar's own
// previous or next button until the date's month shows, clicks the day
// that names the date, and closes the calendar if it stays open. For a
// range (st.Half), the start's step leaves the calendar open on its start
// and the end's step clicks the end there. The step's read-back then reads
// the date the control shows. Every wait is on the page's answer, bounded
// by chooseWait; no message names the date.
func (e *Executor) pickDate(ctx context.Context, st replay.Step) error {
	args := map[string]any{"value": st.Value, "half": st.Half, "phase": ""}
	deadline := time.Now().Add(chooseWait)
	for moves := 0; moves < maxPages+8; {
		p, err := chromedp.Run(ctx, pageOp[calendarPlan](e.world, "pickdate", args))
		if err != nil {
			return err
		}
		switch {
		case p.Done:
			return nil
		case p.Wait:
			if time.Now().After(deadline) {
				return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
			}
			if p.Phase != "" {
				args["phase"] = p.Phase
			}
			if err := sleep(ctx, 30*time.Millisecond); err != nil {
				return err
			}
			continue
		case p.Fail != "":
			return failure(fmt.Sprintf("%s: %s", stepRef(st), p.Fail))
		case p.Open != nil:
			if err := e.press(ctx, *p.Open, "click"); err != nil {
				return err
			}
			args["phase"] = "opened"
		case p.Click != nil:
			if err := e.press(ctx, *p.Click, "clickpicked"); err != nil {
				return err
			}
			if p.Rest != nil {
				if err := chromedp.Do(ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p.Rest.X, p.Rest.Y)); err != nil {
					return err
				}
			}
			args["phase"] = p.Phase
		case p.Close:
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
				return err
			}
			args["phase"] = "closed"
		default:
			return failure(fmt.Sprintf("%s: the control did not answer as a date picker does", stepRef(st)))
		}
		moves++
		deadline = time.Now().Add(chooseWait)
	}
	return failure(fmt.Sprintf("%s: the calendar did not reach the date's month", stepRef(st)))
}
