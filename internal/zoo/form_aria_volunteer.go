package zoo

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/chromedp/chromedp"
)

var volunteerLanguages = []string{"Arabic", "Bengali", "English", "French", "German", "Hindi", "Japanese",
	"Mandarin", "Portuguese", "Spanish", "Swahili", "Turkish"}

// ariaVolunteer is built from React Aria Components' Form, TextField,
// DateField and a ListBox with selectionMode="multiple".
var ariaVolunteer = &Form{
	Name:  "aria-volunteer",
	Title: "Volunteer sign-up",
	Widgets: []string{"React Aria DateField: month, day and year spinbutton segments typed digit by digit",
		"React Aria ListBox selectionMode=multiple with English selected by default: a click toggles an option",
		"fetch POST JSON, then the record page"},
	Convention: `date of birth written MM/DD/YYYY; languages split by "|"`,
	Key:        "email",
	Columns: []Column{
		text("volunteer", "name"),
		text("email", "email"),
		dateCol("dob", "birth_date", "01/02/2006"),
		listCol("speaks", "languages", "|", volunteerLanguages),
	},
	fields: []field{
		{name: "name", label: "Full name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "birth_date", label: "Date of birth", required: true, check: isoDate},
		{name: "languages", label: "Languages spoken", required: true, check: listOf(volunteerLanguages)},
	},
	json: true,
	demos: [2][]string{
		{"Margaret Hamilton", "margaret.hamilton@demo.example.org", "08/17/1986", "English|Spanish"},
		{"Frances Allen", "frances.allen@demo.example.org", "12/04/1992", "French"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		born, _ := cellDate(g.day(1950, 2008), "2006-01-02")
		return []string{given + " " + family, email(given, family, i), born.Format("01/02/2006"),
			strings.Join(g.pickN(volunteerLanguages, 3), "|")}
	},
	routes: libRoutes("aria", []string{"aria.css"}, func() map[string]any {
		return map[string]any{"languages": volunteerLanguages, "languagesDefault": []string{"English"}}
	}),
	fill: func(ctx context.Context, base string, c cells) error {
		born, err := cellDate(c["dob"], "01/02/2006")
		if err != nil {
			return fmt.Errorf("dob: %w", err)
		}
		steps := []act{
			visit(base+"/aria-volunteer/new", "form"),
			fillLabelled("Full name", c["volunteer"]),
			fillLabelled("E-mail", c["email"]),
		}
		if !born.IsZero() {
			steps = append(steps, ariaTypeDate("Date of birth", born.Format("01022006")))
		}
		want := splitList(c["speaks"], "|")
		for _, l := range volunteerLanguages {
			o := textJS(`[role=listbox] [role=option]`, l)
			steps = append(steps, flipTo(o+`.getAttribute('aria-selected') === 'true'`, slices.Contains(want, l), l, o))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}

// ariaTypeDate clicks the first segment of the React Aria date field the
// label names and types the digits; the field moves to the next segment
// when one is full.
func ariaTypeDate(label, digits string) act {
	first := fmt.Sprintf(`(l => l && document.querySelector('[aria-labelledby~="' + l.id + '"] [role=spinbutton]'))([...document.querySelectorAll('label, span')].find(l => l.textContent.trim() === %s))`, jsq(label))
	return chromedp.Steps(clickOn(label, first), chromedp.KeyEvent(digits))
}
