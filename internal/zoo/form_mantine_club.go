package zoo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

var clubInterests = []string{"Hiking", "Cycling", "Photography", "Board games", "Cooking", "Newsletter"}

// mantineClub is built from Mantine's TextInput, Checkbox.Group and a
// DatePickerInput type="range".
var mantineClub = &Form{
	Name:  "mantine-club",
	Title: "Club membership",
	Widgets: []string{"Mantine Checkbox.Group with Newsletter ticked by default",
		"Mantine DatePickerInput type=range: the first and the last day clicked in its calendar, months paged between",
		"fetch POST JSON, then the record page"},
	Convention: `hobbies split by ", "; the period's days written like "Mar 5, 2027"`,
	Key:        "email",
	Columns: []Column{
		text("member", "name"),
		text("email", "email"),
		listCol("hobbies", "interests", ", ", clubInterests),
		dateCol("from", "starts", "Jan 2, 2006"),
		dateCol("until", "ends", "Jan 2, 2006"),
	},
	fields: []field{
		{name: "name", label: "Member name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "interests", label: "Interests", required: true, check: listOf(clubInterests)},
		{name: "starts", label: "Membership period (first day)", required: true, check: isoDate},
		{name: "ends", label: "Membership period (last day)", required: true, check: isoDate},
	},
	json: true,
	demos: [2][]string{
		{"Ida Rhodes", "ida.rhodes@demo.example.org", "Cycling, Newsletter", "Jan 1, 2027", "Jun 30, 2027"},
		{"Evelyn Boyd", "evelyn.boyd@demo.example.org", "Board games", "Mar 15, 2027", "Sep 14, 2027"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		from, _ := cellDate(g.day(2027, 2027), time.DateOnly)
		until := from.AddDate(0, 0, 20+g.r.IntN(120))
		return []string{given + " " + family, email(given, family, i), strings.Join(g.pickN(clubInterests, 3), ", "),
			from.Format("Jan 2, 2006"), until.Format("Jan 2, 2006")}
	},
	routes: libRoutes("mantine", []string{"mantine.css"}, func() map[string]any {
		return map[string]any{"interests": clubInterests, "interestsDefault": []string{"Newsletter"}}
	}),
	fill: func(ctx context.Context, base string, c cells) error {
		from, err := cellDate(c["from"], "Jan 2, 2006")
		if err != nil {
			return fmt.Errorf("from: %w", err)
		}
		until, err := cellDate(c["until"], "Jan 2, 2006")
		if err != nil {
			return fmt.Errorf("until: %w", err)
		}
		steps := []act{
			visit(base+"/mantine-club/new", "form"),
			fillLabelled("Member name", c["member"]),
			fillLabelled("E-mail", c["email"]),
		}
		want := splitList(c["hobbies"], ", ")
		for _, in := range clubInterests {
			box := byLabelJS(in)
			steps = append(steps, flipTo(box+`.checked`, slices.Contains(want, in), in, box))
		}
		if !from.IsZero() {
			// The calendar stays open after the first day, on its month.
			steps = append(steps, clickOn("Membership period", byLabelJS("Membership period")), mantineDay(from), mantineDay(until), mantineClosed)
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}
