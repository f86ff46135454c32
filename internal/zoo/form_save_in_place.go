package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
)

// saveInPlace saves through fetch and stays on the page: the server answers
// after SaveDelay, only then does "Customer created" show, and the form
// empties itself for the next customer.
var saveInPlace = &Form{
	Name:  "save-in-place",
	Title: "New customer",
	Widgets: []string{"fetch POST JSON without navigating; the server answers after SaveDelay",
		"success banner Customer created only after the answer, then the form resets to empty",
		"textarea Notes that may hold line breaks", "native checkbox (Tax exempt)"},
	Convention: "tax_exempt x or empty; source fills no field",
	Key:        "contact_email",
	SameChoice: []string{"tax_exempt"},
	Columns: []Column{
		text("company_name", "company"),
		text("contact_name", "contact"),
		text("contact_email", "email"),
		flag("tax_exempt", "tax_exempt", "x", "", "yes", "no"),
		text("remarks", "notes"),
		unused("source"),
	},
	fields: []field{
		{name: "company", label: "Company", required: true},
		{name: "contact", label: "Contact person", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "tax_exempt", label: "Tax exempt", required: true, check: inList([]string{"yes", "no"}, "yes or no")},
		{name: "notes", label: "Notes"},
	},
	json: true,
	slow: true,
	demos: [2][]string{
		{"Bell Labs, Inc.", "Dennis Ritchie", "dennis.ritchie@demo.example.org", "", "Met at USENIX.\nWants a quote.", "fair"},
		{`"Xerox" PARC`, "Adele Goldberg", "adele.goldberg@demo.example.org", "", "", "web"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		exempt := ""
		if g.sometimes(0.3) {
			exempt = "x"
		}
		return []string{g.from(companies), given + " " + family, email(given, family, i), exempt,
			g.maybe(g.from(notes), 0.4), g.from([]string{"web", "fair", "referral"})}
	},
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/save-in-place/new", "#company"),
			typeInto("#company", c["company_name"]),
			typeInto("#contact", c["contact_name"]),
			typeInto("#email", c["contact_email"]),
			setChecked("#tax_exempt", c["tax_exempt"] == "x", click("#tax_exempt")),
			typeInto("#notes", c["remarks"]),
			click(`button[type=submit]`),
			awaitDone("#banner"),
		)
	},
}
