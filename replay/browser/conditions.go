package browser

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// await polls c until it holds or its timeout (def when it has none)
// passes. before is the URL url_changed compares with. An evaluation that
// fails while a navigation replaces the page counts as "not yet".
func (e *Executor) await(ctx context.Context, c skills.Condition, before string, def time.Duration) error {
	if !knownCond(c.Kind) {
		return fmt.Errorf("unknown condition kind %q", c.Kind)
	}
	limit := def
	if c.Timeout != "" {
		d, err := time.ParseDuration(c.Timeout)
		if err != nil || d <= 0 {
			return fmt.Errorf("condition %s: timeout %q is not a duration such as 10s", c.Kind, c.Timeout)
		}
		limit = d
	}
	args := map[string]string{"kind": c.Kind, "value": c.Value, "before": before}
	deadline := time.Now().Add(limit)
	for {
		ok, err := chromedp.Run(ctx, pageOp[bool]("cond", args))
		if err == nil && ok {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s did not hold within %s", describeCond(c), limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func knownCond(kind string) bool {
	switch kind {
	case skills.CondURLChanged, skills.CondURLContains, skills.CondText, skills.CondElement:
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
	case skills.CondURLContains:
		return fmt.Sprintf("the URL containing %q", c.Value)
	case skills.CondText:
		return fmt.Sprintf("the text %q on the page", c.Value)
	}
	return fmt.Sprintf("the element %q", c.Value)
}

// commit checks a destructive step's assert after it ran: held means the
// row is filed. When it fails, the page's own message says why.
func (e *Executor) commit(ctx context.Context, st replay.Step, before string, out replay.Outcome) (replay.Outcome, error) {
	if len(st.Assert) == 0 {
		// Nothing to check it against: ran, but not known to be filed.
		out.OK = true
		return out, nil
	}
	var err error
	for _, c := range st.Assert {
		if err = e.await(ctx, c, before, 10*time.Second); err != nil {
			break
		}
	}
	if err == nil {
		out.OK, out.Committed = true, true
		return out, nil
	}
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	out.PageMessage, _ = chromedp.Run(ctx, pageOp[string]("message", nil))
	msg := fmt.Sprintf("step %d (%s): ran, but %v", st.Index, st.Action, err)
	if out.PageMessage != "" {
		msg += "; the page says: " + out.PageMessage
	}
	return out, failure(msg)
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
	if err := e.await(cctx, v.Expect, v.URL, 5*time.Second); err != nil {
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
