package extension

import (
	"encoding/json"
	"testing"

	"github.com/reprise-dev/reprise/internal/pages"
)

// TestDatesReadFromText reads the dates texts write, as a calendar's day
// names and a picker's control show them: one date is read only when its
// reading is certain, never guessed.
func TestDatesReadFromText(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	read := openModel(t, `<!doctype html><html lang="de"><title>dates</title></html>`)
	for _, tc := range []struct{ text, want string }{
		{"2027-03-05", "2027-03-05"},
		{"March 5, 2027", "2027-03-05"},
		{"Friday, March 5, 2027", "2027-03-05"},
		{"5 Mar 2027", "2027-03-05"},
		{"10 December 2026", "2026-12-10"},
		{"Today, Friday, March 5, 2027 selected", "2027-03-05"},
		{"5. März 2027", "2027-03-05"}, // the page's language
		{"Sept 30, 2027", "2027-09-30"},
		{"2027/03/05", "2027-03-05"},
		{"05.03.2027", "2027-03-05"},
		{"13/03/2027", "2027-03-13"},
		{"03/13/2027", "2027-03-13"},
		{"03/04/2027", ""}, // day or month first: not certain
		{"March 5, 27", ""},
		{"February 30, 2027", ""},
		{"March 2027", ""},
		{"Pick a date", ""},
		{"March 5, 2027 – March 12, 2027", ""}, // two dates are no one date
	} {
		if got := read(`D.dateIn(` + jsString(tc.text) + `)`); got != tc.want {
			t.Errorf("dateIn(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{"March 5, 2027 – March 12, 2027", "2027-03-05/2027-03-12"},
		{"December 10, 2026 – ", "2026-12-10/"},
		{"5 Mar 2027 to 12 Apr 2027", "2027-03-05/2027-04-12"},
		{"5 Mar 2027 to", "2027-03-05/"},
		{"2026-12-10 – 2026-12-20", "2026-12-10/2026-12-20"},
		{"March 5, 2027", "null"},
		{"March 5, 2027 – soon", "null"},
	} {
		if got := read(`(r => r ? r.start + "/" + r.end : "null")(D.rangeIn(` + jsString(tc.text) + `))`); got != tc.want {
			t.Errorf("rangeIn(%q) = %q; want %q", tc.text, got, tc.want)
		}
	}
}

// TestDOMModelCalendarPickers reads pages.Calendar's date buttons: a
// picker once it shows a date or its calendar, named by its label (never
// its date), its date or range read from what it shows; its calendar's
// months, days (a neighbour month's days outside) and named pagers.
func TestDOMModelCalendarPickers(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	read := openModel(t, pages.Calendar)
	for _, tc := range []struct{ expr, want string }{
		// Empty and closed: a button like any other.
		{`u("#due").kind`, "action"},
		{`($("#due").click(), [u("#due").kind, u("#due").how, D.labelOf(u("#due")), D.dateOf(u("#due"))].join())`, "date,picker,Due date,"},
		{`D.shownMonths(D.calendarDays(D.calendarOf(u("#due")))).join()`, "2027-03"},
		{`D.calendarDays(D.calendarOf(u("#due"))).filter((d) => d.outside).map((d) => d.iso).join()`,
			"2027-02-28,2027-04-01,2027-04-02,2027-04-03,2027-04-04,2027-04-05,2027-04-06,2027-04-07,2027-04-08,2027-04-09,2027-04-10"},
		{`D.pagerOf(D.calendarOf(u("#due")), "next").getAttribute("aria-label")`, "Next month"},
		{`D.pagerOf(D.calendarOf(u("#due")), "previous").getAttribute("aria-label")`, "Previous month"},
		{`($("#due-pop [data-iso='2027-03-09']").click(), D.stateOf(u("#due")))`, "2027-03-09"},
		// Closed, it is still a picker: it shows its date.
		{`(document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" })), [u("#due").kind, D.labelOf(u("#due")), D.dateOf(u("#due"))].join())`, "date,Due date,2027-03-09"},
		{`($("#stay").click(), $("#stay-pop [data-iso='2027-03-05']").click(), [D.dateOf(u("#stay"), "start"), D.dateOf(u("#stay"), "end")].join())`, "2027-03-05,"},
		{`($("#stay-pop [data-iso='2027-03-20']").click(), [D.stateOf(u("#stay")), D.labelOf(u("#stay"))].join())`, "2027-03-05/2027-03-20,Stay"},
		{`u("#plain").kind`, "action"},
	} {
		if got := read(tc.expr); got != tc.want {
			t.Errorf("%s = %q; want %q", tc.expr, got, tc.want)
		}
	}
}

// jsString writes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
