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
	case skills.ReadBackValue, skills.ReadBackSelected, skills.ReadBackChecked, skills.ReadBackSet:
	default:
		return failure(fmt.Sprintf("%s: unknown read-back kind %q", stepRef(st), rb.Kind))
	}
	group := st.Action == "select" || st.Action != "click" && choiceRoles[st.Role]
	args := map[string]any{"kind": rb.Kind, "expect": rb.Expect, "known": known(st.Options), "keep": keepOf(st, group), "half": st.Half}
	got, err := chromedp.Run(ctx, pageOp[string](e.world, "readback", args))
	if err == nil && got == "stale" {
		var again replay.Outcome
		if f, ferr := e.find(ctx, st, group, &again); ferr == nil && f.Hit >= 0 {
			got, err = chromedp.Run(ctx, pageOp[string](e.world, "readback", args))
		}
	}
	if err != nil {
		return err
	}
	switch got {
	case "held":
		return nil
	case "stale":
		return failure(fmt.Sprintf("%s: read-back: the element left the page", stepRef(st)))
	}
	what := map[string]string{
		skills.ReadBackValue:    "the field does not hold the value typed",
		skills.ReadBackSelected: "the list does not show the option chosen",
		skills.ReadBackChecked:  "the box is not in the state wanted",
		skills.ReadBackSet:      "the list does not hold the row's items",
	}[rb.Kind]
	return failure(fmt.Sprintf("%s: read-back failed: %s (the page may have changed it)", stepRef(st), what))
}
