package zoo

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/input"

	"github.com/chromedp/chromedp"
)

// The person's hands on the library forms. The widgets draw their popups
// when opened and their options as data arrives, so every click first
// waits for its element to show: find is a JavaScript expression that
// yields the element (or null) as a person finds it on the screen, by
// its label or its text.

// until waits for the JavaScript condition to hold, re-reading the page
// as it changes.
func until(what, cond string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for {
			ok, err := chromedp.Evaluate[bool](cond)(ctx, t)
			if err == nil && ok {
				return nil
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("wait for %s: %w", what, ctx.Err())
			case <-time.After(25 * time.Millisecond):
			}
		}
	})
}

// A person looks that a choice took before moving on, and makes it
// again when it did not: on a busy machine a click can land on a list
// still sliding into place, or a typed date be dropped as the field loses
// focus.
const (
	tries  = 3               // how often the person makes a choice before giving up
	settle = 5 * time.Second // how long they watch for the choice to show
)

// checked does choose, then waits up to settle for the JavaScript
// condition took to hold, choosing again up to tries times in all.
func checked(what, took string, choose act) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for range tries {
			if _, err := choose(ctx, t); err != nil {
				return err
			}
			wait, cancel := context.WithTimeout(ctx, settle)
			_, err := until(what, took)(wait, t)
			cancel()
			if err == nil || ctx.Err() != nil {
				return err
			}
		}
		return fmt.Errorf("%s did not take in %d tries", what, tries)
	})
}

// clickOn waits for the element find yields to show and to stand still
// (popups slide in, and take no clicks until they are in), then clicks
// its centre with the mouse.
func clickOn(what, find string) act {
	at := fmt.Sprintf(`(() => { const e = %s;
		if (!e || !e.checkVisibility() || getComputedStyle(e).pointerEvents === 'none') return null;
		if (document.getAnimations().some(a => a.playState === 'running' && a.effect && a.effect.target && a.effect.target.contains(e))) return null;
		e.scrollIntoView({block: 'nearest'});
		const r = e.getBoundingClientRect();
		return r.width > 0 ? {x: r.x + r.width / 2, y: r.y + r.height / 2} : null; })()`, find)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		var last *struct{ X, Y float64 }
		for {
			p, err := chromedp.Evaluate[*struct{ X, Y float64 }](at)(ctx, t)
			if err == nil && p != nil && last != nil && *p == *last {
				// The pointer comes to rest on the element first, as a
				// hand's does, so a widget that reacts to hover (options
				// that highlight under the pointer) sees what it would
				// see from a person.
				if _, err := chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, p.X, p.Y)(ctx, t); err != nil {
					return err
				}
				_, err = chromedp.MouseClickXY(p.X, p.Y)(ctx, t)
				return err
			}
			last = p
			select {
			case <-ctx.Done():
				return fmt.Errorf("wait for %s: %w", what, ctx.Err())
			case <-time.After(25 * time.Millisecond):
			}
		}
	})
}

// byLabelJS finds the control a <label> with this text is for.
func byLabelJS(label string) string {
	return fmt.Sprintf(`(l => l && document.getElementById(l.htmlFor))([...document.querySelectorAll('label')].find(l => l.textContent.trim() === %s))`, jsq(label))
}

// textJS finds the visible element matching css whose text is text.
func textJS(css, text string) string {
	return fmt.Sprintf(`[...document.querySelectorAll(%s)].find(e => e.textContent.trim() === %s && e.checkVisibility())`, jsq(css), jsq(text))
}

// fillLabelled clicks the field a label names and types text; an empty
// text leaves the field alone.
func fillLabelled(label, text string) act {
	if text == "" {
		return chromedp.Steps()
	}
	return chromedp.Steps(clickOn(label, byLabelJS(label)), chromedp.KeyEvent(text))
}

// flipTo clicks what when the JavaScript state (a boolean) is not want.
func flipTo(state string, want bool, what, find string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		on, err := chromedp.Evaluate[bool](state)(ctx, t)
		if err != nil {
			return fmt.Errorf("read %s: %w", what, err)
		}
		if on == want {
			return nil
		}
		_, err = clickOn(what, find)(ctx, t)
		return err
	})
}

// toMonth pages a calendar to the month of day: shown is a JavaScript
// expression yielding the first day ("YYYY-MM-DD") of the month on show
// (the first panel of a two-month calendar), or "" while none shows;
// when inView holds, day can be clicked as it is. next and prev find the
// calendar's buttons. Each click waits up to settle for the calendar to
// move on; one that did not take is made again, and one that took late
// and overshot is walked back.
func toMonth(day time.Time, shown, inView, next, prev string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for range 240 {
			// A calendar redrawing between months can show none for a
			// moment, so each look first waits for one.
			if _, err := until("the calendar", shown+` !== ""`)(ctx, t); err != nil {
				return err
			}
			if in, err := chromedp.Evaluate[bool](inView)(ctx, t); err == nil && in {
				return nil
			}
			at, err := chromedp.Evaluate[string](shown)(ctx, t)
			if err != nil {
				return err
			}
			if at == "" {
				continue
			}
			month, err := time.Parse(time.DateOnly, at)
			if err != nil {
				return fmt.Errorf("the calendar shows %q: %w", at, err)
			}
			button, what := next, "the next month"
			if day.Before(month) {
				button, what = prev, "the previous month"
			}
			if _, err := clickOn(what, button)(ctx, t); err != nil {
				return err
			}
			wait, cancel := context.WithTimeout(ctx, settle)
			_, err = until("the calendar to move", `(s => s !== "" && s !== `+jsq(at)+`)(`+shown+`)`)(wait, t)
			cancel()
			if ctx.Err() != nil {
				return err
			}
		}
		return fmt.Errorf("the calendar never showed %s", day.Format(time.DateOnly))
	})
}

// firstLetters is what a person types to find an option: its first n
// letters.
func firstLetters(label string, n int) string {
	r := []rune(label)
	return string(r[:min(n, len(r))])
}
