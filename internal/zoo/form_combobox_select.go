package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
)

var services = []choice{{"ground", "Ground"}, {"two_day", "Two-day"}, {"overnight", "Overnight"}, {"freight", "Freight"}}

// comboboxSelect has a select-only combobox (APG "Select-Only Combobox"): a
// div role=combobox that shows the current value and opens a listbox.
var comboboxSelect = &Form{
	Name:  "combobox-select",
	Title: "New shipment",
	Widgets: []string{"select-only combobox (div role=combobox aria-haspopup=listbox, popup role=listbox; click or Enter/Space/Down opens, Enter/click picks)",
		"native checkbox (Signature required)", "fetch POST JSON, then a confirmation"},
	Convention: "service as the option's label (Two-day); signature x or empty",
	Key:        "recipient_email",
	Columns: []Column{
		text("recipient_name", "recipient"),
		text("recipient_email", "email"),
		text("address", "street"),
		byLabel("service", "service", services),
		flag("signature", "signature", "x", "", "yes", "no"),
	},
	fields: []field{
		{name: "recipient", label: "Recipient", required: true},
		{name: "email", label: "Recipient e-mail", required: true, check: isEmail},
		{name: "street", label: "Street address", required: true},
		{name: "service", label: "Shipping service", required: true, check: oneOf(services)},
		{name: "signature", label: "Signature required", required: true, check: inList([]string{"yes", "no"}, "yes or no")},
	},
	json: true,
	demos: [2][]string{
		{"Margaret Hamilton", "m.hamilton@demo.example.org", "1 Apollo Way, Building 4", "Overnight", "x"},
		{"Tim Berners-Lee", "tbl@demo.example.org", "CERN, Route de Meyrin", "Ground", ""},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		sig := ""
		if g.sometimes(0.4) {
			sig = "x"
		}
		return []string{given + " " + family, email(given, family, i), g.from(streets), g.choice(services).Label, sig}
	},
	data: func() any { return services },
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/combobox-select/new", "#recipient"),
			typeInto("#recipient", c["recipient_name"]),
			typeInto("#email", c["recipient_email"]),
			typeInto("#street", c["address"]),
			click("[role=combobox]"),
			chromedp.WaitVisible(chromedp.CSS("[role=listbox]")),
			clickText("[role=listbox] [role=option]", c["service"]),
			chromedp.WaitNotVisible(chromedp.CSS("[role=listbox]")),
			setChecked("#signature", c["signature"] == "x", click("#signature")),
			click(`button[type=submit]`),
			awaitDone("#confirmation"),
		)
	},
}
