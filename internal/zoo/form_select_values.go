package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
)

var (
	countries = []choice{{"US", "United States"}, {"CA", "Canada"}, {"MX", "Mexico"}, {"BR", "Brazil"},
		{"GB", "United Kingdom"}, {"FR", "France"}, {"DE", "Germany"}, {"ES", "Spain"}, {"IT", "Italy"},
		{"CI", "Côte d'Ivoire"}, {"SN", "Senegal"}, {"JP", "Japan"}, {"KR", "South Korea"}, {"AU", "Australia"}}
	sizes = []choice{{"xs", "Extra small"}, {"s", "Small"}, {"m", "Medium"}, {"l", "Large"}, {"xl", "Extra large"}}
	// deliveries follow an empty "— choose —" option on the page.
	deliveries = []choice{{"std", "Standard"}, {"exp", "Express"}, {"pickup", "Pickup in store"}}
)

// selectValues has native selects whose submitted values are not their
// labels, and one whose first option is empty.
var selectValues = &Form{
	Name:  "select-values",
	Title: "New order",
	Widgets: []string{"native select, values are codes (Country: FR for France)", "native select Size (m for Medium)",
		"native select with an empty first option (— choose —), required", "POST, 303 to a record page"},
	Convention: "country_code as the option's value (FR, CI for Côte d'Ivoire); tshirt_size as the label (Medium); shipping_method as the label in lower case (pickup in store)",
	Key:        "email",
	SameChoice: []string{"size"},
	Columns: []Column{
		text("customer_name", "customer"),
		text("email", "email"),
		byValue("country_code", "country", countries),
		byLabel("tshirt_size", "size", sizes),
		byFolded("shipping_method", "delivery", deliveries),
	},
	fields: []field{
		{name: "customer", label: "Customer name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "country", label: "Country", required: true, check: oneOf(countries)},
		{name: "size", label: "Size", required: true, check: oneOf(sizes)},
		{name: "delivery", label: "Delivery", required: true, check: oneOf(deliveries)},
	},
	demos: [2][]string{
		{"Hedy Lamarr", "hedy.lamarr@demo.example.org", "FR", "Medium", "express"},
		{"Claude Shannon", "claude.shannon@demo.example.org", "CI", "Medium", "pickup in store"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		d := g.choice(deliveries).Label
		if g.sometimes(0.7) {
			d = fold(d)
		}
		return []string{given + " " + family, email(given, family, i), g.choice(countries).Value,
			g.choice(sizes).Label, d}
	},
	data: func() any {
		return map[string][]choice{"Countries": countries, "Sizes": sizes, "Deliveries": deliveries}
	},
	fill: func(ctx context.Context, base string, c cells) error {
		delivery := ""
		for _, d := range deliveries {
			if fold(d.Label) == fold(c["shipping_method"]) {
				delivery = d.Label
			}
		}
		return chromedp.Do(ctx,
			visit(base+"/select-values/new", "#customer"),
			typeInto("#customer", c["customer_name"]),
			typeInto("#email", c["email"]),
			chooseNative("#country", labelOf(countries, c["country_code"])),
			chooseNative("#size", c["tshirt_size"]),
			chooseNative("#delivery", delivery),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}
