package zoo

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The person's ways with Mantine's pickers.

// mantineTags makes a Mantine MultiSelect hold exactly want: the × of a
// chip not wanted removes it; each missing label is typed in part and its
// option clicked when it shows.
func mantineTags(label string, want []string) act {
	field := byLabelJS(label)
	root := `(` + field + `).closest('.mantine-MultiSelect-root')`
	chips := `[...` + root + `.querySelectorAll('.mantine-MultiSelect-pill')].map(p => p.textContent.trim())`
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		have, err := chromedp.Evaluate[[]string](chips)(ctx, t)
		if err != nil {
			return fmt.Errorf("read %s: %w", label, err)
		}
		for _, h := range have {
			if slices.Contains(want, h) {
				continue
			}
			remove := fmt.Sprintf(`[...%s.querySelectorAll('.mantine-MultiSelect-pill')].find(p => p.textContent.trim() === %s)?.querySelector('button')`, root, jsq(h))
			if _, err := clickOn("the × of "+h, remove)(ctx, t); err != nil {
				return err
			}
			if _, err := until(h+" to go", `!`+chips+`.includes(`+jsq(h)+`)`)(ctx, t); err != nil {
				return err
			}
		}
		for _, w := range want {
			if slices.Contains(have, w) {
				continue
			}
			if err := chromedp.Do(ctx,
				clickOn(label, field),
				chromedp.KeyEvent(firstLetters(w, 3)),
				clickOn(w, textJS("[role=listbox] [role=option]", w)),
				until(w+" as a chip", chips+`.includes(`+jsq(w)+`)`),
			); err != nil {
				return err
			}
		}
		// The list stays open over the fields below it.
		err = chromedp.Do(ctx, press(kb.Escape), until("the list to close", `![...document.querySelectorAll('[role=listbox]')].some(l => l.checkVisibility())`))
		return err
	})
}

// mantineClosed waits for Mantine's open popup to go: it covers what is
// below it.
var mantineClosed = until("the calendar to close", `![...document.querySelectorAll('.mantine-Popover-dropdown')].some(d => d.checkVisibility())`)

// mantineDay clicks a day in the open Mantine calendar (of a
// DatePickerInput), paging its months with the header's arrows.
func mantineDay(day time.Time) act {
	const cal = `[...document.querySelectorAll('.mantine-Popover-dropdown')].find(d => d.checkVisibility())`
	shown := `((c => { const h = c && c.querySelector('[class*=calendarHeaderLevel]'); if (!h) return '';
		const [m, y] = h.textContent.trim().split(' '); const i = ` + monthsJS + `.indexOf(m);
		return i < 0 ? '' : y + '-' + String(i + 1).padStart(2, '0') + '-01'; })(` + cal + `))`
	cell := fmt.Sprintf(`(c => c && [...c.querySelectorAll('button[class*=-day]')].find(b => !b.hasAttribute('data-outside') && b.textContent.trim() === %s))(%s)`,
		jsq(fmt.Sprint(day.Day())), cal)
	button := func(dir string) string {
		return fmt.Sprintf(`(c => c && c.querySelector('[class*=calendarHeaderControl][data-direction=%s]'))(%s)`, dir, cal)
	}
	return chromedp.Steps(
		toMonth(day, shown, `(`+shown+` === `+jsq(day.Format("2006-01")+"-01")+`)`, button("next"), button("previous")),
		clickOn(day.Format(time.DateOnly), cell),
	)
}
