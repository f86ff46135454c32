package zoo

import (
	"context"
	"fmt"

	"github.com/chromedp/chromedp"
)

var states = []string{"Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut",
	"Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky",
	"Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri",
	"Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
	"North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island",
	"South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington",
	"West Virginia", "Wisconsin", "Wyoming"}

var clientKinds = []choice{{"individual", "Individual"}, {"business", "Business"}}

// autocomplete has an editable combobox with list autocomplete (APG
// "Combobox With List Autocomplete"): typing a prefix filters the states;
// the server takes only a state of the list.
var autocomplete = &Form{
	Name:  "autocomplete",
	Title: "New client",
	Widgets: []string{"editable combobox input role=combobox aria-autocomplete=list filtering 50 US states by prefix (Down/Up, Enter, Escape, click)",
		"native radio group (Client type)", "optional City", "POST, 303; free text in State is refused with 400"},
	Convention: "us_state as the option's text (Nevada); client_type as the option's value (business)",
	Key:        "email",
	Columns: []Column{
		text("client", "name"),
		text("email", "email"),
		byValue("client_type", "kind", clientKinds),
		text("client_city", "city"),
		byLabel("us_state", "state", statesChoice()),
	},
	fields: []field{
		{name: "name", label: "Client name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "kind", label: "Client type", required: true, check: oneOf(clientKinds)},
		{name: "city", label: "City"},
		{name: "state", label: "State", required: true, check: inList(states, "choose a state from the list")},
	},
	demos: [2][]string{
		{"Frances Allen", "frances.allen@demo.example.org", "individual", "Las Vegas", "Nevada"},
		{"Jean Sammet", "jean.sammet@demo.example.org", "business", "", "New York"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given + " " + family, email(given, family, i), g.choice(clientKinds).Value,
			g.maybe(g.from(cities), 0.3), g.from(states)}
	},
	data: func() any { return states },
	fill: func(ctx context.Context, base string, c cells) error {
		state := c["us_state"]
		prefix := string([]rune(state)[:min(3, len([]rune(state)))])
		return chromedp.Do(ctx,
			visit(base+"/autocomplete/new", "#name"),
			typeInto("#name", c["client"]),
			typeInto("#email", c["email"]),
			clickText("fieldset label", labelOf(clientKinds, c["client_type"])),
			typeInto("#city", c["client_city"]),
			typeInto("#state", prefix),
			// Wait for the suggestion, then click it.
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`[...document.querySelectorAll('#state-list [role=option]')].some(o => o.textContent.trim() === %s && o.checkVisibility())`, jsq(state))),
			clickText("#state-list [role=option]", state),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}

func statesChoice() []choice {
	cs := make([]choice, len(states))
	for i, s := range states {
		cs[i] = choice{s, s}
	}
	return cs
}
