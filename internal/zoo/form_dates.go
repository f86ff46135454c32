package zoo

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

var months = []string{"January", "February", "March", "April", "May", "June", "July", "August",
	"September", "October", "November", "December"}

// dates has three ways to enter a date: a native date input, a masked text
// field that inserts the slashes, and day, month and year selects.
var dates = &Form{
	Name:  "dates",
	Title: "New patient",
	Widgets: []string{"date of birth as three native selects (Day, Month by name, Year)",
		"native input type=date", "masked text date MM/DD/YYYY that inserts the slashes, optional",
		"POST, 303 to a record page"},
	Convention: "every date YYYY-MM-DD, whatever the page wants (three selects, MM/DD/YYYY, the date input's own value)",
	Key:        "email",
	Columns: []Column{
		text("patient_first", "first_name"),
		text("patient_last", "last_name"),
		text("email", "email"),
		splitDate("date_of_birth", "birth_day", "birth_month", "birth_year"),
		date("appointment", "visit_date", time.DateOnly),
		date("insured_since", "insured_since", "01/02/2006"),
	},
	fields: []field{
		{name: "first_name", label: "First Name", required: true},
		{name: "last_name", label: "Last Name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "birth_day", label: "Birth day", required: true, check: number(1, 31)},
		{name: "birth_month", label: "Birth month", required: true, check: number(1, 12)},
		{name: "birth_year", label: "Birth year", required: true, check: number(1930, 2010)},
		{name: "visit_date", label: "Preferred appointment date", required: true, check: layoutCheck(time.DateOnly, "YYYY-MM-DD")},
		{name: "insured_since", label: "Insured since", check: layoutCheck("01/02/2006", "MM/DD/YYYY")},
	},
	demos: [2][]string{
		{"Rosalind", "Franklin", "rosalind.franklin@demo.example.org", "1980-07-25", "2026-03-16", "2012-01-09"},
		{"Jonas", "Salk", "jonas.salk@demo.example.org", "1994-10-28", "2026-04-02", ""},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given, family, email(given, family, i), g.day(1930, 2010), g.day(2026, 2027),
			g.maybe(g.day(2000, 2025), 0.3)}
	},
	data: func() any {
		var days, years []int
		for d := 1; d <= 31; d++ {
			days = append(days, d)
		}
		for y := 2010; y >= 1930; y-- {
			years = append(years, y)
		}
		ms := make([]choice, len(months))
		for i, m := range months {
			ms[i] = choice{fmt.Sprint(i + 1), m}
		}
		return map[string]any{"Days": days, "Months": ms, "Years": years}
	},
	fill: func(ctx context.Context, base string, c cells) error {
		born, err := time.Parse(time.DateOnly, c["date_of_birth"])
		if err != nil {
			return fmt.Errorf("date_of_birth: %w", err)
		}
		insured := ""
		if c["insured_since"] != "" {
			t, err := time.Parse(time.DateOnly, c["insured_since"])
			if err != nil {
				return fmt.Errorf("insured_since: %w", err)
			}
			insured = t.Format("01022006") // the page inserts the slashes
		}
		return chromedp.Do(ctx,
			visit(base+"/dates/new", "#first_name"),
			typeInto("#first_name", c["patient_first"]),
			typeInto("#last_name", c["patient_last"]),
			typeInto("#email", c["email"]),
			chooseNative("#birth_day", fmt.Sprint(born.Day())),
			chooseNative("#birth_month", months[born.Month()-1]),
			chooseNative("#birth_year", fmt.Sprint(born.Year())),
			typeDate("#visit_date", c["appointment"]),
			typeInto("#insured_since", insured),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}

// number checks a whole number between lo and hi, written without zeros
// in front, as a select's option values are.
func number(lo, hi int) func(string) string {
	return func(v string) string {
		var n int
		if _, err := fmt.Sscan(v, &n); err != nil || fmt.Sprint(n) != v || n < lo || n > hi {
			return fmt.Sprintf("choose a number from %d to %d", lo, hi)
		}
		return ""
	}
}

// typeDate types an ISO date into a native date input: the digits of each
// part in the order the browser's locale shows them, as a person reads the
// mm/dd/yyyy the field shows.
func typeDate(css, iso string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		d, err := time.Parse(time.DateOnly, iso)
		if err != nil {
			return fmt.Errorf("%s: %w", css, err)
		}
		order, err := chromedp.Evaluate[[]string](`new Intl.DateTimeFormat(undefined, {year: 'numeric', month: '2-digit', day: '2-digit'})
			.formatToParts(new Date(2001, 10, 22)).filter(p => p.type !== 'literal').map(p => p.type)`)(ctx, t)
		if err != nil {
			return err
		}
		part := map[string]string{"year": d.Format("2006"), "month": d.Format("01"), "day": d.Format("02")}
		var keys strings.Builder
		for _, p := range order {
			keys.WriteString(part[p])
		}
		_, err = chromedp.Steps(chromedp.Focus(chromedp.CSS(css)), press(keys.String()))(ctx, t)
		return err
	})
}
