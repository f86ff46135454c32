package browser

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// condEnv is what a condition is checked against: the URL before the
// step (url_changed, url_unchanged) and the step's selectors (form_reset
// finds its form again when the page replaced the element).
type condEnv struct {
	before    string
	selectors []skills.Selector
}

// holds polls conds until all hold at once, or the longest of their
// timeouts (def for those without) passes. An evaluation that fails while
// a navigation replaces the page counts as "not yet". A request_ok whose
// request was answered with an error fails at once: waiting cannot mend it.
func (e *Executor) holds(ctx context.Context, conds skills.Conditions, env condEnv, def time.Duration) error {
	limit := time.Duration(0)
	for _, c := range conds {
		if !knownCond(c.Kind) {
			return fmt.Errorf("unknown condition kind %q", c.Kind)
		}
		d := def
		if c.Timeout != "" {
			var err error
			if d, err = time.ParseDuration(c.Timeout); err != nil || d <= 0 {
				return fmt.Errorf("condition %s: timeout %q is not a duration such as 10s", c.Kind, c.Timeout)
			}
		}
		limit = max(limit, d)
	}
	deadline := time.Now().Add(limit)
	for {
		var failing *skills.Condition
		final := false
		for i, c := range conds {
			ok, done := e.check(ctx, c, env)
			if !ok {
				failing, final = &conds[i], done
				break
			}
		}
		if failing == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if final || time.Now().After(deadline) {
			return fmt.Errorf("%s did not hold within %s", describeCond(*failing), limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// check evaluates one condition now; final says a condition that does not
// hold never will.
func (e *Executor) check(ctx context.Context, c skills.Condition, env condEnv) (ok, final bool) {
	switch c.Kind {
	case skills.CondRequestOK:
		return e.net.requestOK()
	case skills.CondURLChanged, skills.CondURLUnchanged, skills.CondURLContains:
		// Read from the navigations seen: a page reached only to be
		// checked by its URL (the one a submit lands on) never needs the
		// executor's world, whose making costs each document tens of
		// milliseconds of CPU, nor to answer while it is busy loading.
		url := e.nav.location()
		return map[string]bool{
			skills.CondURLChanged:   url != env.before,
			skills.CondURLUnchanged: url == env.before,
			skills.CondURLContains:  strings.Contains(url, c.Value),
		}[c.Kind], false
	}
	args := map[string]any{"kind": c.Kind, "value": c.Value, "before": env.before}
	if c.Kind == skills.CondFormReset {
		args["selectors"] = jsSelectors(env.selectors)
	}
	ok, err := chromedp.Run(ctx, pageOp[bool](e.world, "cond", args))
	return err == nil && ok, false
}

func knownCond(kind string) bool {
	switch kind {
	case skills.CondURLChanged, skills.CondURLUnchanged, skills.CondURLContains, skills.CondText, skills.CondElement,
		skills.CondFormReset, skills.CondRequestOK:
		return true
	}
	return false
}

// describeCond names a condition for a person. Its value is the skill's
// (a URL part, a banner's text, a CSS selector), not a row's field.
func describeCond(c skills.Condition) string {
	switch c.Kind {
	case skills.CondURLChanged:
		return "the URL change"
	case skills.CondURLUnchanged:
		return "the page staying at its URL"
	case skills.CondURLContains:
		return fmt.Sprintf("the URL containing %q", c.Value)
	case skills.CondText:
		return fmt.Sprintf("the text %q on the page", c.Value)
	case skills.CondFormReset:
		return "the form's reset to empty"
	case skills.CondRequestOK:
		return "a 2xx or 3xx answer to the request the step sent"
	}
	return fmt.Sprintf("the element %q", c.Value)
}

// commit checks a destructive step's assert after it ran: held means the
// row is filed. When it fails, the page's own message says why. Either
// way the outcome says whether a request left for the site, and its answer.
func (e *Executor) commit(ctx context.Context, st replay.Step, before string, out replay.Outcome) (replay.Outcome, error) {
	if len(st.Assert) == 0 {
		// Nothing to check it against: ran, but not known to be filed.
		e.sentBy(ctx, &out, before, false)
		out.OK = true
		return out, nil
	}
	err := e.holds(ctx, st.Assert, condEnv{before: before, selectors: st.Selectors}, 10*time.Second)
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	e.sentBy(ctx, &out, before, err != nil)
	if err == nil {
		// Filed, by the site's own signal: what it shows of the row must
		// be the row, where the demonstrations' pages showed it.
		if err := e.echoed(ctx, st); err != nil {
			return out, err
		}
		out.OK, out.Committed, out.Echoed = true, true, len(st.Echo)
		return out, nil
	}
	out.PageMessage, _ = chromedp.Run(ctx, pageOp[string](e.world, "message", nil))
	msg := fmt.Sprintf("step %d (%s): ran, but %v", st.Index+1, st.Action, err)
	if out.PageMessage != "" {
		msg += "; the page says: " + out.PageMessage
	}
	return out, failure(msg)
}

// sentBy sets out.Sent and out.Status from what left the page since the
// action: Sent when a request or a WebSocket frame left, or the page moved
// from url (or its URL cannot be read), Status the last request's answer.
// The tab was watched throughout (Watched). When wait is set (the assert
// failed), an unanswered request gets a few seconds to answer, so a slow
// site reads as refused or accepted rather than unknown.
func (e *Executor) sentBy(ctx context.Context, out *replay.Outcome, url string, wait bool) {
	if wait {
		e.net.settle(ctx, 5*time.Second)
	}
	any, status, _ := e.net.sent()
	sent := any || e.nav.location() != url
	if !sent {
		// Before saying nothing left, the page itself is asked: one that
		// cannot answer may have sent what was not seen.
		now, err := chromedp.Run(ctx, chromedp.Location())
		sent = err != nil || now != url
	}
	out.Sent = sent
	out.Status, out.Watched = status, true
}

// Verify opens v.URL and reports whether v.Expect holds there within its
// timeout (default 5 s). url_changed compares with v.URL itself: it holds
// when the site redirected.
func (e *Executor) Verify(ctx context.Context, v skills.Verification) (bool, error) {
	if !knownCond(v.Expect.Kind) {
		return false, fmt.Errorf("verify: unknown condition kind %q", v.Expect.Kind)
	}
	if e.tab.Err() != nil {
		return false, ErrClosed
	}
	cctx, stop := e.bind(ctx)
	defer stop()
	if err := chromedp.Do(cctx, chromedp.Navigate(v.URL)); err != nil {
		if gerr := e.gone(ctx); gerr != nil {
			return false, gerr
		}
		return false, fmt.Errorf("verify: open the page: %s", errKind(err))
	}
	if err := e.holds(cctx, skills.Conditions{v.Expect}, condEnv{before: v.URL}, 5*time.Second); err != nil {
		if gerr := e.gone(ctx); gerr != nil {
			return false, gerr
		}
		return false, nil
	}
	return true, nil
}

// Snapshot saves a PNG of the whole page to path, readable by its owner
// only: the page holds the row's values.
func (e *Executor) Snapshot(ctx context.Context, path string) error {
	if e.tab.Err() != nil {
		return ErrClosed
	}
	cctx, stop := e.bind(ctx)
	defer stop()
	png, err := chromedp.Run(cctx, chromedp.FullScreenshot(100))
	if err != nil {
		if gerr := e.gone(ctx); gerr != nil {
			return gerr
		}
		return fmt.Errorf("snapshot: %s", errKind(err))
	}
	if err := os.WriteFile(path, png, 0o600); err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	return os.Chmod(path, 0o600) // WriteFile keeps an existing file's mode
}

// echoed checks that the page after a destructive step shows every value
// of st.Echo, as the pages after the demonstrations showed theirs (a
// confirmation page, the saved record). The page compares, and answers
// which are missing: no value leaves it. A missing one fails the step
// with the placeholder it came from; the step ran and sent its request,
// so the row is unknown, never committed nor failed.
func (e *Executor) echoed(ctx context.Context, st replay.Step) error {
	if len(st.Echo) == 0 {
		return nil
	}
	if err := e.waitLoaded(ctx, 10*time.Second); err != nil {
		return err
	}
	var missing []int
	deadline := time.Now().Add(5 * time.Second)
	for {
		var err error
		missing, err = chromedp.Run(ctx, pageOp[[]int](e.world, "echoed", map[string]any{"values": st.Echo}))
		if err != nil || len(missing) == 0 || time.Now().After(deadline) {
			if err != nil {
				return err
			}
			break
		}
		// The page may still be rendering the record: look again.
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	if len(missing) == 0 {
		return nil
	}
	var names []string
	for _, i := range missing {
		if i >= 0 && i < len(st.EchoOf) {
			names = append(names, st.EchoOf[i])
		}
	}
	return failure(fmt.Sprintf("step %d (%s): the site's success signal held, but the page after it does not show what the row filled for %s, as the demonstrations' pages did: the site may hold something else",
		st.Index+1, st.Action, strings.Join(names, ", ")))
}
