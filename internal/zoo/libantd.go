package zoo

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The person's ways with antd's pickers.

// antdTag adds one tag to an antd multiple Select: click its search box,
// type the first letters, and when the option shows take it with Enter if
// antd made it the active one, else with a click.
func antdTag(input, label string) act {
	option := textJS(".ant-select-dropdown .ant-select-item-option", label)
	return chromedp.Steps(
		click(input),
		chromedp.KeyEvent(firstLetters(label, 4)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if _, err := until(label+" among the options", option+` !== undefined`)(ctx, t); err != nil {
				return err
			}
			active, err := chromedp.Evaluate[bool](option+`.classList.contains('ant-select-item-option-active')`)(ctx, t)
			if err != nil {
				return err
			}
			if active {
				_, err = chromedp.KeyEvent(kb.Enter)(ctx, t)
			} else {
				_, err = clickOn(label, option)(ctx, t)
			}
			if err != nil {
				return err
			}
			_, err = until(label+" as a tag", textJS(".ant-select-selection-item-content", label)+` !== undefined`)(ctx, t)
			return err
		}),
	)
}

// antdDay clicks a day in the open antd date picker, paging its months
// with the header's arrows until the day shows.
func antdDay(day time.Time) act {
	const open = `document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')`
	cell := fmt.Sprintf(`(d => d && d.querySelector('td.ant-picker-cell-in-view[title="%s"]'))(%s)`, day.Format(time.DateOnly), open)
	shown := `((d => { const c = d && d.querySelector('td.ant-picker-cell-in-view[title]');
		return c ? c.title.slice(0, 8) + '01' : ''; })(` + open + `))`
	button := func(dir string) string {
		return fmt.Sprintf(`[...%s.querySelectorAll('.ant-picker-header-%s-btn')].find(b => b.checkVisibility({visibilityProperty: true}))`, open, dir)
	}
	return chromedp.Steps(
		toMonth(day, shown, `!!`+cell, button("next"), button("prev")),
		clickOn(day.Format(time.DateOnly), cell),
	)
}
