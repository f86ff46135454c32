package browser

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// readBack checks st.ReadBack on the element the step acted on. The page
// compares and answers held or failed, so the values never leave it. When
// a framework replaced the element while handling the step, the element is
// found again by the same selectors and asked once more.
func (e *Executor) readBack(ctx context.Context, st replay.Step) error {
	rb := st.ReadBack
	if rb == nil {
		return nil
	}
	switch rb.Kind {
	case skills.ReadBackValue, skills.ReadBackSelected, skills.ReadBackChecked:
	default:
		return failure(fmt.Sprintf("step %d (%s): unknown read-back kind %q", st.Index, st.Action, rb.Kind))
	}
	args := map[string]string{"kind": rb.Kind, "expect": rb.Expect}
	got, err := chromedp.Run(ctx, pageOp[string]("readback", args))
	if err == nil && got == "stale" {
		var again replay.Outcome
		if f, ferr := e.find(ctx, st, &again); ferr == nil && f.Hit >= 0 {
			got, err = chromedp.Run(ctx, pageOp[string]("readback", args))
		}
	}
	if err != nil {
		return err
	}
	switch got {
	case "held":
		return nil
	case "stale":
		return failure(fmt.Sprintf("step %d (%s %q): read-back: the element left the page", st.Index, st.Action, st.Label))
	}
	what := map[string]string{
		skills.ReadBackValue:    "the field does not hold the value typed",
		skills.ReadBackSelected: "the list does not show the option chosen",
		skills.ReadBackChecked:  "the box is not in the state wanted",
	}[rb.Kind]
	return failure(fmt.Sprintf("step %d (%s %q): read-back failed: %s (the page may have changed it)", st.Index, st.Action, st.Label, what))
}
