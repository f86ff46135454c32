package zoo

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

var shipmentDepots = []string{"Aberdeen Harbour", "Abingdon", "Barnsley", "Bath Riverside", "Bristol Temple",
	"Cambridge North", "Cardiff Bay", "Derby", "Dundee", "Exeter St David's", "Glasgow Central", "Leeds Holbeck",
	"Leicester", "Norwich", "Oxford Cowley", "Swansea", "York"}

// antdShipment is built from antd's Form, Input, a Select with remote
// search, InputNumber and a DatePicker typed into.
var antdShipment = &Form{
	Name:  "antd-shipment",
	Title: "Parcel pickup",
	Widgets: []string{"antd Select showSearch with remote options: type a few letters, wait for the search, click the option",
		"antd InputNumber", "antd DatePicker: the date typed into its input as YYYY-MM-DD, then Tab (Enter there submits the form)",
		"fetch POST JSON, then the record page"},
	Convention: `ship date written YYYY/MM/DD; parcels a whole number, maybe empty`,
	Key:        "email",
	Columns: []Column{
		text("from_name", "sender"),
		text("email", "email"),
		byLabel("depot_name", "depot", labels(shipmentDepots...)),
		text("boxes", "parcels"),
		dateCol("pickup_on", "ship_date", "2006/01/02"),
	},
	fields: []field{
		{name: "sender", label: "Sender", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "depot", label: "Drop-off depot", required: true, check: inList(shipmentDepots, "choose a depot from the list")},
		{name: "parcels", label: "Parcels", check: number(1, 20)},
		{name: "ship_date", label: "Ship on", required: true, check: isoDate},
	},
	json: true,
	demos: [2][]string{
		{"Sophie Wilson", "sophie.wilson@demo.example.org", "Cambridge North", "3", "2027/03/05"},
		{"Steve Furber", "steve.furber@demo.example.org", "Leeds Holbeck", "", "2027/01/18"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		day, _ := cellDate(g.day(2027, 2027), time.DateOnly)
		return []string{given + " " + family, email(given, family, i), g.from(shipmentDepots),
			g.maybe(fmt.Sprint(1+g.r.IntN(20)), 0.3), day.Format("2006/01/02")}
	},
	routes: func(s *Site, f *Form) {
		libRoutes("antd", nil, func() map[string]any { return map[string]any{} })(s, f)
		s.mux.HandleFunc("GET /antd-shipment/depots", searchIn(shipmentDepots))
	},
	fill: func(ctx context.Context, base string, c cells) error {
		day, err := cellDate(c["pickup_on"], "2006/01/02")
		if err != nil {
			return fmt.Errorf("pickup_on: %w", err)
		}
		steps := []act{
			visit(base+"/antd-shipment/new", "#email"),
			typeInto("#sender", c["from_name"]),
			typeInto("#email", c["email"]),
		}
		if d := c["depot_name"]; d != "" {
			steps = append(steps, antdChoose("#depot", d, chromedp.Steps(
				clickOn("Drop-off depot", `document.querySelector('#depot')`), chromedp.KeyEvent(firstLetters(d, 3)))))
		}
		steps = append(steps, typeInto("#parcels", c["boxes"]))
		if !day.IsZero() {
			steps = append(steps, antdTypeDate("#ship", day))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}

// searchIn answers a remote search after SearchDelay: the items whose
// text holds q, accents optional, as {"label": ...}; none for an empty q.
func searchIn(items []string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(SearchDelay):
		case <-r.Context().Done():
			return
		}
		q := fold(strings.TrimSpace(r.URL.Query().Get("q")))
		found := []map[string]string{}
		for _, it := range items {
			if q != "" && strings.Contains(fold(it), q) {
				found = append(found, map[string]string{"label": it})
			}
		}
		writeJSON(w, http.StatusOK, found)
	}
}
