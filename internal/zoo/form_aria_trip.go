package zoo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// SearchDelay is how long the trip form's airport search takes to answer:
// the options show a while after the person types, as from a real API.
const SearchDelay = 400 * time.Millisecond

var (
	tripAirports = []string{"Lagos (LOS)", "Lima (LIM)", "Lisbon (LIS)", "London Gatwick (LGW)", "London Heathrow (LHR)",
		"Los Angeles (LAX)", "Madrid (MAD)", "Manchester (MAN)", "Miami (MIA)", "Milan Malpensa (MXP)", "Montréal (YUL)",
		"Munich (MUC)", "Nairobi (NBO)", "New York JFK (JFK)", "Oslo (OSL)", "Paris Charles de Gaulle (CDG)", "Porto (OPO)",
		"Prague (PRG)", "Seoul Incheon (ICN)", "Sydney (SYD)", "Tokyo Haneda (HND)", "Toronto Pearson (YYZ)"}
	tripNeeds = []string{"Window seat", "Extra legroom", "Vegetarian meal", "Wheelchair assistance"}
)

// ariaTrip is built from React Aria Components' Form, TextField, a
// ComboBox whose options load as the person types (useAsyncList), a
// DatePicker and a CheckboxGroup.
var ariaTrip = &Form{
	Name:  "aria-trip",
	Title: "Trip request",
	Widgets: []string{"React Aria ComboBox with async options: type a few letters, wait for the search, click the option",
		"React Aria DatePicker: open its calendar with the button, page the months, click the day",
		"React Aria CheckboxGroup with Window seat ticked by default", "fetch POST JSON, then the record page"},
	Convention: `departure written like 05-Mar-2027; needs split by ", ", maybe none`,
	Key:        "email",
	Columns: []Column{
		text("passenger", "name"),
		text("email", "email"),
		byLabel("fly_to", "destination", labels(tripAirports...)),
		dateCol("leaving", "depart", "02-Jan-2006"),
		listCol("needs", "needs", ", ", tripNeeds),
	},
	fields: []field{
		{name: "name", label: "Traveller", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "destination", label: "Destination airport", required: true, check: inList(tripAirports, "choose an airport from the list")},
		{name: "depart", label: "Departure", required: true, check: isoDate},
		{name: "needs", label: "Travel needs", check: listOf(tripNeeds)},
	},
	json: true,
	demos: [2][]string{
		{"Mae Jemison", "mae.jemison@demo.example.org", "Lisbon (LIS)", "05-Mar-2027", "Window seat, Vegetarian meal"},
		{"Sally Ride", "sally.ride@demo.example.org", "Oslo (OSL)", "19-Feb-2027", "Extra legroom"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		day, _ := cellDate(g.day(2027, 2027), time.DateOnly)
		needs := ""
		if !g.sometimes(0.2) {
			needs = strings.Join(g.pickN(tripNeeds, 3), ", ")
		}
		return []string{given + " " + family, email(given, family, i), g.from(tripAirports), day.Format("02-Jan-2006"), needs}
	},
	routes: func(s *Site, f *Form) {
		libRoutes("aria", []string{"aria.css"}, func() map[string]any {
			return map[string]any{"needs": tripNeeds, "needsDefault": []string{"Window seat"}}
		})(s, f)
		s.mux.HandleFunc("GET /aria-trip/airports", searchIn(tripAirports))
	},
	fill: func(ctx context.Context, base string, c cells) error {
		day, err := cellDate(c["leaving"], "02-Jan-2006")
		if err != nil {
			return fmt.Errorf("leaving: %w", err)
		}
		steps := []act{
			visit(base+"/aria-trip/new", "form"),
			fillLabelled("Traveller", c["passenger"]),
			fillLabelled("E-mail", c["email"]),
		}
		if to := c["fly_to"]; to != "" {
			// Typed over what the field holds: a pick that did not take
			// leaves the letters there, and the person types them again.
			field := byLabelJS("Destination airport")
			steps = append(steps, checked(to+" in the field", field+`.value === `+jsq(to), chromedp.Steps(
				clickOn("Destination airport", field),
				chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
				chromedp.KeyEvent(firstLetters(to, 3)),
				clickOn(to, textJS(".react-aria-Popover [role=option]", to)))))
		}
		if !day.IsZero() {
			steps = append(steps, ariaCalendarDay("Departure", day))
		}
		want := splitList(c["needs"], ", ")
		for _, n := range tripNeeds {
			box := textJS("label.react-aria-Checkbox", n)
			steps = append(steps, flipTo(box+`.hasAttribute('data-selected')`, slices.Contains(want, n), n, box))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}

// monthsJS is the English month names as a JavaScript array.
var monthsJS = func() string { b, _ := json.Marshal(months); return string(b) }()

// ariaCalendarDay opens the calendar of the React Aria date picker the
// label names with its button, pages to the day's month with the
// calendar's Next and Previous buttons, and clicks the day.
func ariaCalendarDay(label string, day time.Time) act {
	picker := fmt.Sprintf(`[...document.querySelectorAll('.react-aria-DatePicker')].find(p => p.querySelector('.react-aria-Label').textContent.trim() === %s)`, jsq(label))
	const cal = `document.querySelector('.react-aria-Popover .react-aria-Calendar')`
	shown := `((c => { const h = c && c.querySelector('h2'); if (!h) return '';
		const [m, y] = h.textContent.trim().split(' '); const i = ` + monthsJS + `.indexOf(m);
		return i < 0 ? '' : y + '-' + String(i + 1).padStart(2, '0') + '-01'; })(` + cal + `))`
	cell := fmt.Sprintf(`(c => c && [...c.querySelectorAll('[role=gridcell] [role=button]')].find(b => !b.hasAttribute('data-outside-month') && b.textContent.trim() === %s))(%s)`,
		jsq(fmt.Sprint(day.Day())), cal)
	button := func(name string) string {
		return fmt.Sprintf(`(c => c && c.querySelector('button[aria-label=%s]'))(%s)`, name, cal)
	}
	return chromedp.Steps(
		clickOn(label+"'s calendar button", picker+`.querySelector('button')`),
		toMonth(day, shown, `(`+shown+` === `+jsq(day.Format("2006-01")+"-01")+`)`, button("Next"), button("Previous")),
		clickOn(day.Format(time.DateOnly), cell),
		until("the calendar to close", `!`+cal),
	)
}
