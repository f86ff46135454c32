package zoo

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var (
	confTopics = []string{"Accessibility", "Compilers", "Databases", "Design systems", "DevOps", "Distributed systems",
		"Machine learning", "Mobile", "Observability", "Security", "Testing", "Web performance"}
	confMeals = []string{"Breakfast", "Lunch", "Dinner", "Vegetarian", "Gluten-free"}
)

// antdSignup is built from antd's Form, Input, Select mode="multiple",
// DatePicker and Checkbox.Group.
var antdSignup = &Form{
	Name:  "antd-signup",
	Title: "Conference registration",
	Widgets: []string{"antd Select mode=multiple: a tag picker, type to filter then Enter or click",
		"antd DatePicker: a day clicked in the calendar, months paged with its arrows",
		"antd Checkbox.Group with Lunch ticked by default", "fetch POST JSON, then the record page"},
	Convention: `tracks split by ", ", catering by "; "; the session day written like "March 5, 2027"`,
	Key:        "email",
	Columns: []Column{
		text("attendee", "name"),
		text("email", "email"),
		listCol("tracks", "topics", ", ", confTopics),
		dateCol("session_day", "session_date", "January 2, 2006"),
		listCol("catering", "meals", "; ", confMeals),
	},
	fields: []field{
		{name: "name", label: "Full name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "topics", label: "Topics", required: true, check: listOf(confTopics)},
		{name: "session_date", label: "Session day", required: true, check: isoDate},
		{name: "meals", label: "Meals", check: listOf(confMeals)},
	},
	json: true,
	demos: [2][]string{
		{"Grace Hopper", "grace.hopper@demo.example.org", "Compilers, Testing", "March 5, 2027", "Lunch; Vegetarian"},
		{"Alan Kay", "alan.kay@demo.example.org", "Design systems", "January 21, 2027", "Breakfast"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		meals := ""
		if !g.sometimes(0.2) {
			meals = strings.Join(g.pickN(confMeals, 3), "; ")
		}
		day, _ := time.Parse(time.DateOnly, g.day(2027, 2027))
		return []string{given + " " + family, email(given, family, i), strings.Join(g.pickN(confTopics, 3), ", "),
			day.Format("January 2, 2006"), meals}
	},
	routes: libRoutes("antd", nil, func() map[string]any {
		return map[string]any{"topics": confTopics, "meals": confMeals, "mealsDefault": []string{"Lunch"}}
	}),
	fill: func(ctx context.Context, base string, c cells) error {
		day, err := cellDate(c["session_day"], "January 2, 2006")
		if err != nil {
			return fmt.Errorf("session_day: %w", err)
		}
		steps := []act{
			visit(base+"/antd-signup/new", "#email"),
			typeInto("#name", c["attendee"]),
			typeInto("#email", c["email"]),
		}
		for _, topic := range splitList(c["tracks"], ", ") {
			steps = append(steps, antdTag("#topics", topic))
		}
		// The list stays open under the field, over the next ones.
		steps = append(steps, press(kb.Escape), until("the topics list to close",
			`!document.querySelector('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')`))
		if !day.IsZero() {
			steps = append(steps, antdDays("#session", day))
		}
		meals := splitList(c["catering"], "; ")
		for _, m := range confMeals {
			label := textJS("label.ant-checkbox-wrapper", m)
			steps = append(steps, flipTo(label+`.querySelector('input').checked`, slices.Contains(meals, m), m, label))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}
