package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var tiers = []choice{{"starter", "Starter"}, {"growth", "Growth"}, {"scale", "Scale"}}

var trueFalse = []string{"true", "false"}

// ariaChoices has choice controls built from divs and spans as the APG
// patterns describe, with no native input inside: the page's script keeps
// their state and sends it with fetch.
var ariaChoices = &Form{
	Name:  "aria-choices",
	Title: "New account",
	Widgets: []string{"ARIA radiogroup of div role=radio (roving tabindex, arrow keys move and select)",
		"ARIA checkbox span role=checkbox (Space toggles)", "ARIA switch button role=switch",
		"fetch POST JSON, then a confirmation"},
	Convention: "account_tier as the option's value (growth); product_updates and two_factor true/false",
	Key:        "email",
	Columns: []Column{
		text("name", "full_name"),
		text("email", "email"),
		byValue("account_tier", "tier", tiers),
		flag("product_updates", "updates", "true", "false", "true", "false"),
		flag("two_factor", "two_factor", "true", "false", "true", "false"),
	},
	fields: []field{
		{name: "full_name", label: "Full name", required: true},
		{name: "email", label: "Work e-mail", required: true, check: isEmail},
		{name: "tier", label: "Tier", required: true, check: oneOf(tiers)},
		{name: "updates", label: "Product updates", required: true, check: inList(trueFalse, "true or false")},
		{name: "two_factor", label: "Two-factor authentication", required: true, check: inList(trueFalse, "true or false")},
	},
	json: true,
	demos: [2][]string{
		{"Katherine Johnson", "k.johnson@demo.example.org", "scale", "true", "false"},
		{"Dorothy Vaughan", "d.vaughan@demo.example.org", "starter", "false", "true"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given + " " + family, email(given, family, i), g.choice(tiers).Value,
			g.from(trueFalse), g.from(trueFalse)}
	},
	data: func() any { return tiers },
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/aria-choices/new", "#full_name"),
			typeInto("#full_name", c["name"]),
			typeInto("#email", c["email"]),
			clickText("[role=radio]", labelOf(tiers, c["account_tier"])),
			// From the checked radio, Tab reaches the checkbox; Space flips it.
			press(kb.Tab),
			setChecked("[role=checkbox]", c["product_updates"] == "true", press(" ")),
			setChecked("[role=switch]", c["two_factor"] == "true", click("[role=switch]")),
			click(`button[type=submit]`),
			awaitDone("#confirmation"),
		)
	},
}
