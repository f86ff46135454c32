package zoo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The person's ways with antd's pickers.

// antdTag adds one tag to an antd multiple Select: click its search box,
// type the first letters, and when the option shows click it. Not Enter:
// on a busy machine the list re-rendered between the look and the key,
// the Enter reached the form, and the demonstration held two submits the
// form refused (which the skill build then kept; see the stop notes).
func antdTag(input, label string) act {
	option := textJS(".ant-select-dropdown .ant-select-item-option", label)
	return chromedp.Steps(
		click(input),
		chromedp.KeyEvent(firstLetters(label, 4)),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if _, err := until(label+" among the options", option+` !== undefined`)(ctx, t); err != nil {
				return err
			}
			if _, err := clickOn(label, option)(ctx, t); err != nil {
				return err
			}
			_, err := until(label+" as a tag", textJS(".ant-select-selection-item-content", label)+` !== undefined`)(ctx, t)
			return err
		}),
	)
}

// antdChoose picks label in the antd Select whose input is input (a CSS
// selector): unless its list is open, open opens it (a click, maybe then
// the first letters typed); the person clicks the option and looks that
// the list closed with label in the field.
func antdChoose(input, label string, open act) act {
	field := fmt.Sprintf(`document.querySelector(%s)`, jsq(input))
	option := textJS(".ant-select-dropdown .ant-select-item-option", label)
	took := fmt.Sprintf(`%s.closest('.ant-select').querySelector('.ant-select-content').textContent.trim() === %s
		&& !document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')`, field, jsq(label))
	return checked(label+" in "+input, took, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		expanded, err := chromedp.Evaluate[bool](field+`.getAttribute('aria-expanded') === 'true'`)(ctx, t)
		if err != nil {
			return err
		}
		if !expanded {
			if _, err := open(ctx, t); err != nil {
				return err
			}
		}
		_, err = clickOn(label, option)(ctx, t)
		return err
	}))
}

// antdTypeDate types day as YYYY-MM-DD over whatever the antd DatePicker
// input holds and leaves with Tab (Enter there submits the form), then
// looks that the calendar closed with the date kept in the field.
func antdTypeDate(input string, day time.Time) act {
	text := day.Format(time.DateOnly)
	field := fmt.Sprintf(`document.querySelector(%s)`, jsq(input))
	took := fmt.Sprintf(`%s.value === %s && !document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')`, field, jsq(text))
	return checked(text+" in "+input, took, chromedp.Steps(
		clickOn(input, field),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(text+kb.Tab),
	))
}

// antdDays opens the antd date picker whose (first) input is input and
// clicks its days, one or a range's two, then looks that the calendar
// closed with the inputs showing the days as YYYY-MM-DD.
func antdDays(input string, days ...time.Time) act {
	want := make([]string, len(days))
	steps := []act{click(input)}
	for i, d := range days {
		want[i] = d.Format(time.DateOnly)
		steps = append(steps, antdDay(d))
	}
	took := fmt.Sprintf(`[...document.querySelector(%s).closest('.ant-picker').querySelectorAll('input')].map(i => i.value).join() === %s
		&& !document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)')`, jsq(input), jsq(strings.Join(want, ",")))
	return checked(strings.Join(want, " to ")+" in "+input, took, chromedp.Steps(steps...))
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
