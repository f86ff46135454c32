package browser

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/pages"
	"github.com/reprise-dev/reprise/internal/zoo"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// pickStep is a fill step on a date picked in a calendar, read back.
func pickStep(i int, label, value, half string) replay.Step {
	st := withReadBack(step(i, "fill", label, value, sel("label", label)), skills.ReadBackValue, value)
	st.Role, st.Half = "button", half
	return st
}

type calendarState struct {
	Due   string
	Stay  []string
	When  string
	In    string
	Notes int
}

func calendarPage(t *testing.T, ex *Executor) calendarState {
	t.Helper()
	var got calendarState
	if err := json.Unmarshal([]byte(eval[string](t, ex, "state()")), &got); err != nil {
		t.Fatal(err)
	}
	return got
}

// A date button whose date is picked only in its calendar gets the row's
// date: the calendar paged by its own named buttons (back and forth), the
// day clicked by the date its own label says, not a day of the month next
// to the one shown that the grid shows too; a range gets its start, then
// its end, in one calendar. What the page holds is read by the test's own
// eyes.
func TestDatePickedInCalendar(t *testing.T) {
	ex, _ := browser(t)
	openPage(t, ex, pages.Calendar)
	// The calendar opens on March 2027, whose grid shows April 2 and 3 as
	// well: April's own are the ones to click.
	mustOK(t, ex, pickStep(1, "Due date", "2027-04-02", ""))
	mustOK(t, ex, pickStep(2, "Stay", "2026-11-28", "start"))
	mustOK(t, ex, pickStep(3, "Stay", "2027-01-09", "end"))
	got := calendarPage(t, ex)
	if got.Due != "2027-04-02" || got.Stay[0] != "2026-11-28" || got.Stay[1] != "2027-01-09" {
		t.Errorf("the page holds %+v; want due 2027-04-02, stay 2026-11-28 to 2027-01-09", got)
	}
	if n := eval[int](t, ex, `document.querySelectorAll("[role=dialog]").length`); n != 0 {
		t.Errorf("%d calendar(s) left open; want every one closed", n)
	}

	// Again, on a picker that holds a date already: another one.
	mustOK(t, ex, pickStep(4, "Due date", "2027-02-27", ""))
	if got := calendarPage(t, ex); got.Due != "2027-02-27" {
		t.Errorf("the due date is %q after a second pick; want 2027-02-27", got.Due)
	}

	// A calendar that previews the day under the pointer in its control,
	// and did not take the first click: the preview is not taken for the
	// pick, the day is clicked again.
	mustOK(t, ex, pickStep(8, "Check-in", "2027-03-18", ""))
	if got := calendarPage(t, ex); got.In != "2027-03-18" {
		t.Errorf("check-in is %q; want 2027-03-18 picked, not previewed", got.In)
	}

	// A range's end with no start picked is refused, not guessed.
	out := run(t, ex, pickStep(5, "Stay", "2027-05-01", "end"))
	if out.OK || !strings.Contains(out.Error, "first day is not picked") {
		t.Errorf("an end without its start: %+v; want a failure that says the start comes first", out)
	}

	// A picker that shows its date as 03/04/2027 cannot prove which day
	// it holds: the step fails, naming no date.
	out = run(t, ex, pickStep(6, "Meeting day", "2027-03-04", ""))
	if out.OK || strings.Contains(out.Error, "2027") {
		t.Errorf("a date the control shows ambiguously: %+v; want a failure that names no date", out)
	}

	// A plain button is never clicked for a fill.
	out = run(t, ex, step(7, "fill", "Add a note", "2027-03-04", sel("role+text", "button[name='Add a note']")))
	if out.OK || calendarPage(t, ex).Notes != 0 {
		t.Errorf("a fill on a plain button: %+v, clicked %d times; want a failure and no click", out, calendarPage(t, ex).Notes)
	}
}

// Mantine's DatePickerInput, as the zoo bundles it: a date and a range
// picked in its calendar, read back from the text its button shows.
func TestMantineDatePickerInput(t *testing.T) {
	ex, _ := browser(t)
	site := zoo.Serve()
	defer site.Close()
	open(t, ex, site.URL()+"/mantine-gift/new")
	mustOK(t, ex, pickStep(1, "Delivery date", "2027-09-30", ""))
	if got := eval[string](t, ex, `document.querySelector("[data-dates-input]").textContent`); got != "September 30, 2027" {
		t.Errorf("the button shows %q; want September 30, 2027", got)
	}
	open(t, ex, site.URL()+"/mantine-club/new")
	mustOK(t, ex, pickStep(1, "Membership period", "2027-01-31", "start"))
	mustOK(t, ex, pickStep(2, "Membership period", "2027-03-01", "end"))
	if got := eval[string](t, ex, `document.querySelector("[data-dates-input]").textContent`); got != "January 31, 2027 – March 1, 2027" {
		t.Errorf("the button shows %q; want January 31, 2027 – March 1, 2027", got)
	}
}
