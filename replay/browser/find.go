package browser

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// found is page.js's answer to find: for each selector tried, its visible
// matches (in group mode, the distinct groups they belong to); hit is the
// index of the first that matched exactly one (-1: none); tag, type and
// editable describe that element, kind its unit in the DOM model (text,
// toggle, range, file, choice, action; member for a radio or option found
// by itself) and how, for a choice, which kind of list it is.
type found struct {
	Ready    bool   `json:"ready"`
	Counts   []int  `json:"counts"`
	Hit      int    `json:"hit"`
	Tag      string `json:"tag"`
	Type     string `json:"type"`
	Editable bool   `json:"editable"`
	Kind     string `json:"kind"`
	How      string `json:"how"`
	// Popup is the element's aria-haspopup: what a button opens.
	Popup string `json:"popup"`
	// Unproven are the candidates refused as not the step's element.
	Unproven []unproven `json:"unproven"`
	// Point is where to click the element, read as it was found, for a
	// click or a submit found by its selectors.
	Point *clickPoint `json:"point"`
}

type jsSelector struct {
	Strategy string `json:"strategy"`
	Value    string `json:"value"`
}

// find looks for the step's element, retrying until the executor's find
// timeout while no selector matches exactly one visible element (a page
// may render its form after its load event). In group mode (a choice
// step) each selector's matches count as the groups they belong to. On
// success the element, or the group, is the target of the page's next ops.
func (e *Executor) find(ctx context.Context, st replay.Step, group bool, out *replay.Outcome) (found, error) {
	args := map[string]any{"selectors": jsSelectors(st.Selectors), "group": group, "proof": proofOf(st),
		"point": st.Action == "click" || st.Action == "submit"}
	deadline := time.Now().Add(e.findTimeout)
	for {
		// The target first; the recorded selectors are its fallbacks.
		var tried []replay.Attempt
		var refused []unproven // the target's, At -1
		if st.Target != nil {
			f, n, err := e.findTarget(ctx, *st.Target, group, targetProof(st, *st.Target))
			if err == nil && f.Hit >= 0 {
				out.Tried = []replay.Attempt{targetAttempt(1)}
				out.Via, out.Selector = replay.ViaTarget, -1
				return f, nil
			}
			a := targetAttempt(n)
			if len(f.Unproven) > 0 {
				a.Unproven = true
				refused = append(refused, unproven{At: -1, Role: f.Unproven[0].Role, Name: f.Unproven[0].Name})
			}
			tried = append(tried, a)
		}
		f, err := chromedp.Run(ctx, pageOp[found](e.world, "find", args))
		// An evaluation that failed because a navigation replaced the
		// page is retried like a page that is not ready.
		if err == nil && f.Ready && f.Hit >= 0 || time.Now().After(deadline) {
			if err != nil {
				return found{}, err
			}
			out.Tried = append(tried, attempts(st.Selectors, f.Counts)...)
			markUnproven(out.Tried, len(tried), f.Unproven)
			f.Unproven = append(refused, f.Unproven...)
			if f.Hit >= 0 {
				out.Via, out.Selector = replay.ViaDOM, f.Hit
			}
			return f, nil
		}
		select {
		case <-ctx.Done():
			return found{}, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func jsSelectors(sels []skills.Selector) []jsSelector {
	out := make([]jsSelector, len(sels))
	for i, s := range sels {
		out[i] = jsSelector{s.Strategy, s.Value}
	}
	return out
}

// attempts pairs the selectors tried with their match counts.
func attempts(sels []skills.Selector, counts []int) []replay.Attempt {
	out := make([]replay.Attempt, 0, len(counts))
	for i, n := range counts {
		out = append(out, replay.Attempt{Strategy: sels[i].Strategy, Matches: n})
	}
	return out
}

// notFound says, for a person, which element was not found within how
// long, at which step, then what was tried and what each matched: the
// target, then the recorded selectors. Selectors and labels are the
// page's, never a field's value.
//
// refused are the candidates found and refused as not the step's element
// (At -1 for the target): each is named with its role and name, so a
// person sees what the selector would have hit.
func notFound(st replay.Step, tried []replay.Attempt, group bool, within time.Duration, refused []unproven) string {
	var b strings.Builder
	what := "the element"
	switch {
	case st.Target != nil:
		what = st.Target.String()
	case st.Label != "" && st.Role != "":
		what = fmt.Sprintf("%s %q", st.Role, st.Label)
	case st.Label != "":
		what = fmt.Sprintf("%q", st.Label)
	}
	if group {
		what = "the list of options " + what
	}
	most := 0
	for _, a := range tried {
		if !a.Unproven {
			most = max(most, a.Matches)
		}
	}
	fmt.Fprintf(&b, "%s not found within %s at step %d (%s): ", what, within, st.Index+1, st.Action)
	switch {
	case most > 1:
		fmt.Fprintf(&b, "%d elements match", most)
	case len(refused) > 0:
		b.WriteString("nothing proven to be it matches")
	default:
		b.WriteString("nothing matches")
	}
	if len(st.Selectors) == 0 && st.Target == nil {
		b.WriteString(" (the step has no selectors)")
	}
	// Each refusal by its index in tried: the target's first, if any.
	offset := 0
	if st.Target != nil {
		offset = 1
	}
	why := map[int]unproven{}
	for _, u := range refused {
		why[max(offset+u.At, 0)] = u
	}
	count := func(i int) string {
		if i >= len(tried) {
			return "not tried"
		}
		if u, ok := why[i]; ok {
			return u.String()
		}
		return plural(tried[i].Matches, "match", "matches")
	}
	sep, at := ": ", 0
	if st.Target != nil {
		fmt.Fprintf(&b, ": target %s: %s", st.Target, count(0))
		sep, at = "; ", 1
	}
	for i, s := range st.Selectors {
		fmt.Fprintf(&b, "%s%s %s: %s", sep, s.Strategy, s.Value, count(at+i))
		sep = "; "
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
