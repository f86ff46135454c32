package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var plans = []choice{{"basic", "Basic"}, {"pro", "Pro"}, {"enterprise", "Enterprise"}}

// nativeChoices is the plain form every tool must get right: a native
// radio group in a fieldset, a native checkbox, a POST and a 303. Its CSV
// carries a column no field uses, and its promo code is left as it is.
var nativeChoices = &Form{
	Name:  "native-choices",
	Title: "New subscription",
	Widgets: []string{"text fields (the person moves between them with Tab)", "optional Company field",
		"native radio group in a fieldset with a legend (Plan)", "native checkbox (newsletter)",
		"prefilled Promo code no column fills", "POST, 303 to a record page"},
	Convention: "subscription_plan as the option's label (Pro); wants_newsletter yes/no; internal_note fills no field",
	Key:        "Email address",
	Columns: []Column{
		text("given_name", "first_name"),
		text("family_name", "last_name"),
		text("Email address", "email"),
		text("organisation", "company"),
		byLabel("subscription_plan", "plan", plans),
		flag("wants_newsletter", "newsletter", "yes", "no", "yes", ""),
		unused("internal_note"),
	},
	Fixed: map[string]string{"promo": "SPRING24"},
	fields: []field{
		{name: "first_name", label: "First Name", required: true},
		{name: "last_name", label: "Last Name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "company", label: "Company"},
		{name: "plan", label: "Plan", required: true, check: oneOf(plans)},
		{name: "newsletter", label: "Newsletter", check: inList([]string{"yes"}, "tick the box or leave it")},
		{name: "promo", label: "Promo code"},
	},
	demos: [2][]string{
		{"Grace", "Hopper", "grace.hopper@demo.example.org", "Navy Labs", "Basic", "yes", "met at the fair"},
		{"Linus", "Pauling", "linus.pauling@demo.example.org", "", "Enterprise", "no", ""},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		yes := "no"
		if g.sometimes(0.5) {
			yes = "yes"
		}
		return []string{given, family, email(given, family, i), g.maybe(g.from(companies), 0.3),
			g.choice(plans).Label, yes, g.maybe("VIP, call first", 0.7)}
	},
	data: func() any { return plans },
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/native-choices/new", "#first_name"),
			typeInto("#first_name", c["given_name"]),
			press(kb.Tab), press(c["family_name"]),
			press(kb.Tab), press(c["Email address"]),
			press(kb.Tab), press(c["organisation"]),
			clickText("fieldset label", c["subscription_plan"]),
			setChecked(`input[name=newsletter]`, c["wants_newsletter"] == "yes", click(`input[name=newsletter]`)),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}
