package zoo

import (
	"context"
	"fmt"
	"slices"

	"github.com/chromedp/chromedp"
)

// offices is the listbox's 30 options; the page stores the label itself.
var offices = func() []choice {
	var cs []choice
	for _, o := range []string{"Amsterdam", "Athens", "Austin", "Bangalore", "Berlin", "Bogotá", "Boston",
		"Cairo", "Chicago", "Dublin", "Helsinki", "Istanbul", "Kraków", "Lagos", "Lisbon", "London",
		"Madrid", "Montréal", "Nairobi", "Oslo", "Paris", "Reykjavík", "São Paulo", "Seoul", "Singapore",
		"Sydney", "Tokyo", "Toronto", "Vienna", "Zürich"} {
		cs = append(cs, choice{o, o})
	}
	return cs
}()

// listboxForm has a scrollable single-select ARIA listbox (APG "Listbox"):
// ul role=listbox with li role=option, aria-activedescendant, selection
// follows focus, Up/Down/Home/End and type-ahead.
var listboxForm = &Form{
	Name:  "listbox",
	Title: "New team member",
	Widgets: []string{"scrollable single-select listbox of 30 options (ul role=listbox, aria-activedescendant, Up/Down/Home/End, type-ahead)",
		"fetch POST JSON, then the page navigates to the record"},
	Convention: "based_in as the option's label with its accents dropped (Zurich for Zürich, Sao Paulo)",
	Key:        "work_email",
	Columns: []Column{
		text("first", "first_name"),
		text("last", "last_name"),
		text("work_email", "email"),
		byFolded("based_in", "office", offices),
	},
	fields: []field{
		{name: "first_name", label: "First Name", required: true},
		{name: "last_name", label: "Surname", required: true},
		{name: "email", label: "Work e-mail", required: true, check: isEmail},
		{name: "office", label: "Office", required: true, check: oneOf(offices)},
	},
	json: true,
	demos: [2][]string{
		{"Barbara", "Liskov", "barbara.liskov@demo.example.org", "Zurich"},
		{"Edsger", "Dijkstra", "edsger.dijkstra@demo.example.org", "Amsterdam"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given, family, email(given, family, i), fold(g.choice(offices).Label)}
	},
	data: func() any { return offices },
	fill: func(ctx context.Context, base string, c cells) error {
		office := ""
		for _, o := range offices {
			if fold(o.Label) == fold(c["based_in"]) {
				office = o.Label
			}
		}
		return chromedp.Do(ctx,
			visit(base+"/listbox/new", "#first_name"),
			typeInto("#first_name", c["first"]),
			typeInto("#last_name", c["last"]),
			typeInto("#email", c["work_email"]),
			arrowTo("[role=listbox]", office),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}

// arrowTo clicks a listbox, then walks to the option with the arrow keys.
func arrowTo(css, label string) act {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := click(css)(ctx, t); err != nil {
			return err
		}
		state := fmt.Sprintf(`(lb => { const o = [...lb.querySelectorAll('[role=option]')];
			return {labels: o.map(x => x.textContent.trim()), at: o.findIndex(x => x.getAttribute('aria-selected') === 'true')};
		})(document.querySelector(%s))`, jsq(css))
		for range 3 {
			s, err := chromedp.Evaluate[struct {
				Labels []string
				At     int
			}](state)(ctx, t)
			if err != nil {
				return err
			}
			want := slices.Index(s.Labels, label)
			if want < 0 {
				return fmt.Errorf("%s has no option %q", css, label)
			}
			if s.At == want {
				return nil
			}
			if _, err := press(arrows(s.At, want))(ctx, t); err != nil {
				return err
			}
		}
		return fmt.Errorf("%s: the arrow keys did not reach %q", css, label)
	})
}
