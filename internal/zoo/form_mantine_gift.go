package zoo

import (
	"context"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

var (
	giftProducts = []string{"Candle", "Chocolate box", "Coffee beans", "Fountain pen", "Notebook", "Olive oil",
		"Scarf", "Tea sampler", "Wine glasses", "Yoga mat"}
	giftShipping = []string{"Standard", "Express", "Overnight", "Store pickup"}
)

// mantineGift is built from Mantine's TextInput, a searchable
// MultiSelect, Select, DatePickerInput and a Checkbox that reveals a
// Textarea.
var mantineGift = &Form{
	Name:  "mantine-gift",
	Title: "Gift order",
	Widgets: []string{"Mantine MultiSelect searchable, Notebook chosen by default: type a few letters, click the option; a chip's × removes it",
		"Mantine Select (not native): click it, click the option",
		"Mantine DatePickerInput: a day clicked in its calendar, months paged with its arrows",
		"Mantine Checkbox \"Gift wrap\" that reveals the \"Gift message\" Textarea", "fetch POST JSON, then the record page"},
	Convention: `products split by "; "; delivery date YYYY-MM-DD; wrap Y or N; card_text empty without a wrap`,
	Key:        "email",
	Columns: []Column{
		text("buyer", "name"),
		text("email", "email"),
		listCol("items", "products", "; ", giftProducts),
		byLabel("ship_by", "shipping", labels(giftShipping...)),
		dateCol("deliver_on", "delivery_date", time.DateOnly),
		flag("wrap", "gift_wrap", "Y", "N", "true", "false"),
		text("card_text", "gift_message"),
	},
	fields: []field{
		{name: "name", label: "Your name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "products", label: "Products", required: true, check: listOf(giftProducts)},
		{name: "shipping", label: "Shipping", required: true, check: inList(giftShipping, "choose a shipping method")},
		{name: "delivery_date", label: "Delivery date", required: true, check: isoDate},
		{name: "gift_wrap", label: "Gift wrap", check: inList([]string{"true", "false"}, "tick or untick")},
		{name: "gift_message", label: "Gift message"},
	},
	json: true,
	demos: [2][]string{
		{"Hedy Lamarr", "hedy.lamarr@demo.example.org", "Notebook; Fountain pen", "Express", "2027-02-12", "Y", "Happy birthday!"},
		{"Annie Easley", "annie.easley@demo.example.org", "Tea sampler", "Standard", "2027-04-30", "N", ""},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		wrap, message := "N", ""
		if g.sometimes(0.5) {
			wrap, message = "Y", g.maybe(g.from([]string{"Congratulations!", "With love, from all of us", "Thank you — really.", `To the "best" team`}), 0.25)
		}
		return []string{given + " " + family, email(given, family, i), strings.Join(g.pickN(giftProducts, 3), "; "),
			g.from(giftShipping), g.day(2027, 2027), wrap, message}
	},
	routes: libRoutes("mantine", []string{"mantine.css"}, func() map[string]any {
		return map[string]any{"products": giftProducts, "productsDefault": []string{"Notebook"}, "shipping": giftShipping}
	}),
	fill: func(ctx context.Context, base string, c cells) error {
		day, err := cellDate(c["deliver_on"], time.DateOnly)
		if err != nil {
			return err
		}
		steps := []act{
			visit(base+"/mantine-gift/new", "form"),
			fillLabelled("Your name", c["buyer"]),
			fillLabelled("E-mail", c["email"]),
		}
		want := splitList(c["items"], "; ")
		steps = append(steps, mantineTags("Products", want))
		if c["ship_by"] != "" {
			steps = append(steps, clickOn("Shipping", byLabelJS("Shipping")),
				clickOn(c["ship_by"], textJS("[role=listbox] [role=option]", c["ship_by"])),
				until("the shipping list to close", `!document.querySelector('[role=listbox]')?.checkVisibility()`))
		}
		if !day.IsZero() {
			steps = append(steps, clickOn("Delivery date", byLabelJS("Delivery date")), mantineDay(day), mantineClosed)
		}
		box := byLabelJS("Gift wrap")
		steps = append(steps, flipTo(box+`.checked`, c["wrap"] == "Y", "Gift wrap", box))
		if c["card_text"] != "" {
			steps = append(steps, fillLabelled("Gift message", c["card_text"]))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}
