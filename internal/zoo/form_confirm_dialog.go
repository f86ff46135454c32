package zoo

import (
	"context"

	"github.com/chromedp/chromedp"
)

var contactWays = []choice{{"email", "E-mail"}, {"phone", "Phone"}, {"post", "Post"}}

// confirmDialog asks before it saves: Save opens a modal <dialog> "Create
// this customer?", and only Confirm submits; Cancel leaves the form as it is.
var confirmDialog = &Form{
	Name:  "confirm-dialog",
	Title: "Add customer",
	Widgets: []string{"Save opens a modal <dialog> Create this customer? with Cancel / Confirm; only Confirm submits",
		"native radio group (Preferred contact)", "optional Job title", "POST, 303 to a record page"},
	Convention: "prefers as the option's label (Phone)",
	Key:        "email_address",
	Columns: []Column{
		text("first", "first_name"),
		text("last", "last_name"),
		text("email_address", "email"),
		text("job_title", "title"),
		byLabel("prefers", "contact_by", contactWays),
	},
	fields: []field{
		{name: "first_name", label: "First Name", required: true},
		{name: "last_name", label: "Last Name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "title", label: "Job title"},
		{name: "contact_by", label: "Preferred contact", required: true, check: oneOf(contactWays)},
	},
	demos: [2][]string{
		{"John", "Backus", "john.backus@demo.example.org", "Head of Fortran", "Post"},
		{"Barbara", "McClintock", "b.mcclintock@demo.example.org", "", "E-mail"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given, family, email(given, family, i), g.maybe(g.from(titles), 0.4), g.choice(contactWays).Label}
	},
	data: func() any { return contactWays },
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/confirm-dialog/new", "#first_name"),
			typeInto("#first_name", c["first"]),
			typeInto("#last_name", c["last"]),
			typeInto("#email", c["email_address"]),
			typeInto("#title", c["job_title"]),
			clickText("fieldset label", c["prefers"]),
			click("#save"),
			chromedp.WaitVisible(chromedp.CSS("dialog[open]")),
			clickText("dialog button", "Confirm"),
			awaitDone("#record"),
		)
	},
}
