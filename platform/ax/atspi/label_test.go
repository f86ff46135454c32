package atspi

import (
	"testing"

	"github.com/reprise-dev/reprise/events"
)

func TestRole(t *testing.T) {
	for in, want := range map[string]string{
		"push button": "button", "text": "textbox", "entry": "textbox", "password text": "textbox",
		"check box": "checkbox", "radio button": "radio", "combo box": "combobox",
		"menu item": "menuitem", "link": "link", "Label": "label", "page tab": "page tab",
	} {
		if got := Role(in); got != want {
			t.Errorf("Role(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestNearestLabel(t *testing.T) {
	field := rect{600, 356, 168, 34}
	for _, tc := range []struct {
		name   string
		labels []labelBox
		want   string
	}{
		{"left on the same row", []labelBox{{"First Name", rect{519, 356, 71, 34}}}, "First Name"},
		{"the nearer of two on the row", []labelBox{{"Far", rect{300, 356, 50, 34}}, {"Near", rect{519, 356, 71, 34}}}, "Near"},
		{"the row below is not this row", []labelBox{{"Email", rect{519, 396, 37, 34}}}, ""},
		{"above when none is left", []labelBox{{"Above", rect{600, 330, 80, 20}}}, "Above"},
		{"left beats above", []labelBox{{"Above", rect{600, 350, 80, 5}}, {"Left", rect{400, 360, 50, 20}}}, "Left"},
		{"too far left", []labelBox{{"Far", rect{100, 356, 71, 34}}}, ""},
		{"too far above", []labelBox{{"Far", rect{600, 200, 80, 20}}}, ""},
		{"above but beside", []labelBox{{"Beside", rect{900, 330, 80, 20}}}, ""},
		{"right of the field", []labelBox{{"Right", rect{800, 356, 50, 34}}}, ""},
		{"empty text", []labelBox{{"", rect{519, 356, 71, 34}}}, ""},
		{"none", nil, ""},
	} {
		if got := nearestLabel(field, tc.labels); got != tc.want {
			t.Errorf("%s: nearestLabel(%v, %v) = %q; want %q", tc.name, field, tc.labels, got, tc.want)
		}
	}
}

func TestIsPassword(t *testing.T) {
	path := func(s string) *string { return &s }
	for _, tc := range []struct {
		e    *events.Enrichment
		want bool
	}{
		{&events.Enrichment{Kind: events.KindAX, AXPath: path("dialog[x]/panel/password text")}, true},
		{&events.Enrichment{Kind: events.KindAX, AXPath: path("dialog[x]/panel/password text#2")}, true},
		{&events.Enrichment{Kind: events.KindAX, AXPath: path("dialog[x]/panel/text")}, false},
		{&events.Enrichment{Kind: events.KindAX, AXPath: path(`dialog[a\/password text]/text`)}, false},
		{&events.Enrichment{Kind: events.KindAX, AXPath: path(`dialog[x]/label[password text]`)}, false},
		{&events.Enrichment{Kind: events.KindDOM, AXPath: path("password text")}, false},
		{&events.Enrichment{Kind: events.KindAX}, false},
		{nil, false},
	} {
		if got := IsPassword(tc.e); got != tc.want {
			t.Errorf("IsPassword(%+v) = %v; want %v", tc.e, got, tc.want)
		}
	}
}
