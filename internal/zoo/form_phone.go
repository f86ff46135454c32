package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
)

var (
	callTimes   = []choice{{"morning", "Morning"}, {"afternoon", "Afternoon"}, {"evening", "Evening"}}
	leadSources = []choice{{"web", "Website"}, {"referral", "Referral"}, {"event", "Event"}, {"cold", "Cold call"}}
)

// phone has fields that rewrite or refuse keys as they are typed: a phone
// number the page formats, a ZIP code that takes digits only.
var phone = &Form{
	Name:  "phone",
	Title: "New lead",
	Widgets: []string{"phone field that reformats as typed (digits become (555) 123-4567)",
		"ZIP field that drops every key but digits", "native select (Best time to call)",
		"native select Lead source left at its default (Website)", "POST, 303 to a record page"},
	Convention: "phone_number in any US writing (555-123-4567, +1 555 123 4567, ...); call_time as the option's value (evening); Lead source is left at Website",
	Key:        "email",
	Fixed:      map[string]string{"source": "web"},
	SameChoice: []string{"best_time", "source"},
	Columns: []Column{
		text("lead_name", "name"),
		text("email", "email"),
		phoneCol("phone_number", "phone"),
		text("zip", "zip"),
		byValue("call_time", "best_time", callTimes),
	},
	fields: []field{
		{name: "name", label: "Name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "phone", label: "Phone", required: true, check: isPhone},
		{name: "zip", label: "ZIP code", required: true, check: isZip},
		{name: "best_time", label: "Best time to call", required: true, check: oneOf(callTimes)},
		{name: "source", label: "Lead source", required: true, check: oneOf(leadSources)},
	},
	demos: [2][]string{
		{"Steve Wozniak", "woz@demo.example.org", "408-555-0142", "95014", "evening"},
		{"Evelyn Berezin", "evelyn.berezin@demo.example.org", "+1 212 555 0199", "10001", "evening"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given + " " + family, email(given, family, i), g.phone(), g.digits(5), g.choice(callTimes).Value}
	},
	data: func() any { return map[string][]choice{"Times": callTimes, "Sources": leadSources} },
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/phone/new", "#name"),
			typeInto("#name", c["lead_name"]),
			typeInto("#email", c["email"]),
			typeInto("#phone", phoneDigits(c["phone_number"])),
			typeInto("#zip", c["zip"]),
			chooseNative("#best_time", labelOf(callTimes, c["call_time"])),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}
