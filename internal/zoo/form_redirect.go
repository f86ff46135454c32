package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
)

var supplierKinds = []choice{{"goods", "Goods"}, {"services", "Services"}}

// redirect is the classic POST, 303, record-page flow, with two optional
// fields a row may leave empty.
var redirect = &Form{
	Name:  "redirect",
	Title: "New supplier",
	Widgets: []string{"POST, 303 to /redirect/records/<id> showing every field as text",
		"optional VAT number and Website", "native radio group (Supplier type)"},
	Convention: "type as the option's value (services)",
	Key:        "contact_email",
	Columns: []Column{
		text("supplier", "company"),
		text("vat_id", "vat"),
		text("first_name", "contact_first"),
		text("last_name", "contact_last"),
		text("contact_email", "email"),
		text("web", "website"),
		byValue("type", "kind", supplierKinds),
	},
	fields: []field{
		{name: "company", label: "Company name", required: true},
		{name: "vat", label: "VAT number"},
		{name: "contact_first", label: "Contact first name", required: true},
		{name: "contact_last", label: "Contact last name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "website", label: "Website"},
		{name: "kind", label: "Supplier type", required: true, check: oneOf(supplierKinds)},
	},
	demos: [2][]string{
		{"Analytical Engines, Ltd", "GB123456789", "Charles", "Babbage", "charles.babbage@demo.example.org", "https://engines.example", "goods"},
		{"Difference & Co", "", "Ada", "King", "ada.king@demo.example.org", "", "services"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		vat := g.maybe("DE"+g.digits(9), 0.4)
		web := g.maybe("https://www."+slug(family)+".example", 0.5)
		return []string{g.from(companies), vat, given, family, email(given, family, i), web, g.choice(supplierKinds).Value}
	},
	data: func() any { return supplierKinds },
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/redirect/new", "#company"),
			typeInto("#company", c["supplier"]),
			typeInto("#vat", c["vat_id"]),
			typeInto("#contact_first", c["first_name"]),
			typeInto("#contact_last", c["last_name"]),
			typeInto("#email", c["contact_email"]),
			typeInto("#website", c["web"]),
			clickText("fieldset label", labelOf(supplierKinds, c["type"])),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}
