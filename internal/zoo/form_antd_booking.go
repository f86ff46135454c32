package zoo

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/chromedp"
)

var bookingRooms = []string{"Single", "Double", "Twin", "Family suite", "Studio", "Accessible double"}

// antdBooking is built from antd's Form, Input, DatePicker.RangePicker,
// Select and a Checkbox that reveals another field.
var antdBooking = &Form{
	Name:  "antd-booking",
	Title: "Room booking",
	Widgets: []string{"antd RangePicker: the first and the last day clicked in its two-month calendar",
		"antd Select (not native): click it, click the option",
		"antd Checkbox \"Airport pickup\" that reveals \"Flight number\"", "fetch POST JSON, then the record page"},
	Convention: `dates written DD.MM.YYYY; airport_pickup yes or no; flight_no empty without a pickup`,
	Key:        "email",
	Columns: []Column{
		text("guest", "guest"),
		text("email", "email"),
		dateCol("arrive", "check_in", "02.01.2006"),
		dateCol("depart", "check_out", "02.01.2006"),
		byLabel("room_type", "room", labels(bookingRooms...)),
		flag("airport_pickup", "pickup", "yes", "no", "true", "false"),
		text("flight_no", "flight"),
	},
	fields: []field{
		{name: "guest", label: "Guest name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "check_in", label: "Stay (first day)", required: true, check: isoDate},
		{name: "check_out", label: "Stay (last day)", required: true, check: isoDate},
		{name: "room", label: "Room type", required: true, check: inList(bookingRooms, "choose a room")},
		{name: "pickup", label: "Airport pickup", check: inList([]string{"true", "false"}, "tick or untick")},
		{name: "flight", label: "Flight number"},
	},
	json: true,
	demos: [2][]string{
		{"Katherine Johnson", "katherine.johnson@demo.example.org", "28.02.2027", "03.03.2027", "Twin", "yes", "LH 1172"},
		{"Dorothy Vaughan", "dorothy.vaughan@demo.example.org", "14.01.2027", "16.01.2027", "Family suite", "no", ""},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		arrive, _ := time.Parse(time.DateOnly, g.day(2027, 2027))
		depart := arrive.AddDate(0, 0, 1+g.r.IntN(9))
		pickup, flight := "no", ""
		if g.sometimes(0.5) {
			pickup, flight = "yes", fmt.Sprintf("%s %d", g.from([]string{"LH", "BA", "AF", "KL", "UA"}), 100+g.r.IntN(9000))
		}
		return []string{given + " " + family, email(given, family, i), arrive.Format("02.01.2006"), depart.Format("02.01.2006"),
			g.from(bookingRooms), pickup, flight}
	},
	routes: libRoutes("antd", nil, func() map[string]any { return map[string]any{"rooms": bookingRooms} }),
	fill: func(ctx context.Context, base string, c cells) error {
		arrive, err := cellDate(c["arrive"], "02.01.2006")
		if err != nil {
			return fmt.Errorf("arrive: %w", err)
		}
		depart, err := cellDate(c["depart"], "02.01.2006")
		if err != nil {
			return fmt.Errorf("depart: %w", err)
		}
		steps := []act{
			visit(base+"/antd-booking/new", "#email"),
			typeInto("#guest", c["guest"]),
			typeInto("#email", c["email"]),
		}
		if !arrive.IsZero() {
			// The picker moves on to the last day by itself after the first.
			steps = append(steps, antdDays("#stay", arrive, depart))
		}
		if c["room_type"] != "" {
			steps = append(steps, antdChoose("#room", c["room_type"], click("#room")))
		}
		box := textJS("label.ant-checkbox-wrapper", "Airport pickup")
		steps = append(steps, flipTo(box+`.querySelector('input').checked`, c["airport_pickup"] == "yes", "Airport pickup", box))
		if c["flight_no"] != "" {
			steps = append(steps, clickOn("Flight number", byLabelJS("Flight number")), chromedp.KeyEvent(c["flight_no"]))
		}
		steps = append(steps, click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}
