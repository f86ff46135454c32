package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// pageJS is the page side: one function (op, args) that finds elements,
// acts on the found one and checks conditions, so each is one evaluation.
//
//go:embed page.js
var pageJS string

// pageOp evaluates one op of page.js in the top frame. args go as a JSON
// literal, which is also a JavaScript literal (encoding/json escapes U+2028
// and U+2029), so no value is ever spliced into code.
func pageOp[T any](op string, args any, opts ...chromedp.EvaluateOption) chromedp.Action[T] {
	a, err := json.Marshal(args)
	if err != nil {
		return func(context.Context, *chromedp.Target) (T, error) {
			var zero T
			return zero, fmt.Errorf("encode %s args: %w", op, err)
		}
	}
	return chromedp.Evaluate[T]("("+strings.TrimSpace(pageJS)+")("+fmt.Sprintf("%q", op)+", "+string(a)+")", opts...)
}

// found is page.js's answer to find: for each selector tried, its visible
// matches; hit is the index of the first that matched exactly one (-1:
// none); tag, type and editable describe that element.
type found struct {
	Ready    bool   `json:"ready"`
	Counts   []int  `json:"counts"`
	Hit      int    `json:"hit"`
	Tag      string `json:"tag"`
	Type     string `json:"type"`
	Editable bool   `json:"editable"`
}

type jsSelector struct {
	Strategy string `json:"strategy"`
	Value    string `json:"value"`
}

// find looks for the step's element, retrying until the executor's find
// timeout while no selector matches exactly one visible element (a page
// may render its form after its load event). On success the element is
// window.__repriseTarget in the page.
func (e *Executor) find(ctx context.Context, st replay.Step, out *replay.Outcome) (found, error) {
	sels := make([]jsSelector, len(st.Selectors))
	for i, s := range st.Selectors {
		sels[i] = jsSelector{s.Strategy, s.Value}
	}
	args := map[string]any{"selectors": sels}
	deadline := time.Now().Add(e.findTimeout)
	for {
		f, err := chromedp.Run(ctx, pageOp[found]("find", args))
		// An evaluation that failed because a navigation replaced the
		// page is retried like a page that is not ready.
		if err == nil && f.Ready && f.Hit >= 0 || time.Now().After(deadline) {
			if err != nil {
				return found{}, err
			}
			out.Tried = attempts(st.Selectors, f.Counts)
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

// attempts pairs the selectors tried with their match counts.
func attempts(sels []skills.Selector, counts []int) []replay.Attempt {
	out := make([]replay.Attempt, 0, len(counts))
	for i, n := range counts {
		out = append(out, replay.Attempt{Strategy: sels[i].Strategy, Matches: n})
	}
	return out
}

// notFound says, for a person, which selectors were tried and what each
// matched. Selectors and labels are the page's, never a field's value.
func notFound(st replay.Step, counts []int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d (%s", st.Index, st.Action)
	if st.Label != "" {
		fmt.Fprintf(&b, " %q", st.Label)
	}
	b.WriteString("): no selector matched exactly one visible element")
	if len(st.Selectors) == 0 {
		b.WriteString(" (the step has no selectors)")
	}
	for i, s := range st.Selectors {
		sep := "; "
		if i == 0 {
			sep = ": "
		}
		n := "not tried"
		if i < len(counts) {
			n = plural(counts[i], "match", "matches")
		}
		fmt.Fprintf(&b, "%s%s %s: %s", sep, s.Strategy, s.Value, n)
	}
	b.WriteString("; no accessibility path or visual grounding in the browser executor: re-record the step or add a selector")
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
