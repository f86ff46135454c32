package zoo

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
)

var leaveKinds = []string{"Annual leave", "Sick leave", "Parental leave", "Unpaid leave", "Training"}

// ariaLeave is built from React Aria Components' Form, TextField, Select
// and a DateRangePicker typed segment by segment.
var ariaLeave = &Form{
	Name:  "aria-leave",
	Title: "Leave request",
	Widgets: []string{"React Aria Select: a button that opens a ListBox in a Popover; click it, click the option",
		"React Aria DateRangePicker: start and end month/day/year spinbutton segments typed digit by digit",
		"fetch POST JSON, then the record page"},
	Convention: `days written DD/MM/YYYY (day first)`,
	Key:        "email",
	Columns: []Column{
		text("staff_name", "name"),
		text("email", "email"),
		byLabel("leave_type", "kind", labels(leaveKinds...)),
		dateCol("away_from", "first_day", "02/01/2006"),
		dateCol("back_after", "last_day", "02/01/2006"),
	},
	fields: []field{
		{name: "name", label: "Employee", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "kind", label: "Kind of leave", required: true, check: inList(leaveKinds, "choose a kind of leave")},
		{name: "first_day", label: "Dates away (first)", required: true, check: isoDate},
		{name: "last_day", label: "Dates away (last)", required: true, check: isoDate},
	},
	json: true,
	demos: [2][]string{
		{"Radia Perlman", "radia.perlman@demo.example.org", "Annual leave", "05/03/2027", "12/03/2027"},
		{"Karen Spärck Jones", "karen.sparck.jones@demo.example.org", "Training", "21/01/2027", "22/01/2027"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		from, _ := cellDate(g.day(2027, 2027), time.DateOnly)
		to := from.AddDate(0, 0, g.r.IntN(15))
		return []string{given + " " + family, email(given, family, i), g.from(leaveKinds),
			from.Format("02/01/2006"), to.Format("02/01/2006")}
	},
	routes: libRoutes("aria", []string{"aria.css"}, func() map[string]any { return map[string]any{"kinds": leaveKinds} }),
	fill: func(ctx context.Context, base string, c cells) error {
		from, err := cellDate(c["away_from"], "02/01/2006")
		if err != nil {
			return fmt.Errorf("away_from: %w", err)
		}
		to, err := cellDate(c["back_after"], "02/01/2006")
		if err != nil {
			return fmt.Errorf("back_after: %w", err)
		}
		steps := []act{
			visit(base+"/aria-leave/new", "form"),
			fillLabelled("Employee", c["staff_name"]),
			fillLabelled("E-mail", c["email"]),
		}
		if k := c["leave_type"]; k != "" {
			button := `[...document.querySelectorAll('.react-aria-Select')].find(s => s.querySelector('.react-aria-Label').textContent.trim() === 'Kind of leave').querySelector('button')`
			steps = append(steps, clickOn("Kind of leave", button),
				clickOn(k, textJS(".react-aria-Popover [role=option]", k)),
				until(k+" on the button", button+`.textContent.includes(`+jsq(k)+`)`))
		}
		// The US-English field shows month/day/year whatever the CSV's order.
		segments := `[...document.querySelectorAll('.react-aria-DateRangePicker [role=spinbutton]')]`
		if !from.IsZero() {
			steps = append(steps, clickOn("the first day's month", segments+`[0]`), chromedp.KeyEvent(from.Format("01022006")))
		}
		if !to.IsZero() {
			steps = append(steps, clickOn("the last day's month", segments+`[3]`), chromedp.KeyEvent(to.Format("01022006")))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}
