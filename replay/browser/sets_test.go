package browser

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/pages"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// setStep is a select step on a control that holds a set.
func setStep(i int, role, label, value string, sels ...skills.Selector) replay.Step {
	st := withReadBack(step(i, "select", label, value, sels...), skills.ReadBackSet, value)
	st.Role, st.Multiple = role, true
	return st
}

// Every control that holds a set is made to hold exactly the row's items,
// what it held by default taken out; a date in sections is typed section
// by section. What the page holds is then read by the test's own eyes.
func TestSetsAndSectionedDates(t *testing.T) {
	ex, _ := browser(t)
	openPage(t, ex, pages.Sets)
	steps := []replay.Step{
		setStep(1, "listbox", "Colors", "Red\nBlue", sel("id", "#colors")),
		setStep(2, "listbox", "Days", "Mon\nThu", sel("label", "Days")),
		setStep(3, "group", "Services", "Wash\nDry", sel("role+text", "group[name='Services']")),
		setStep(4, "combobox", "Tags", "Fragile\nPriority", sel("id", "#tags")),
		withReadBack(step(5, "fill", "Ship by", "2027-03-15", sel("label", "Ship by")), skills.ReadBackValue, "2027-03-15"),
		// A range's halves, named only by their sections, found by that
		// name as the recorder gave it.
		withReadBack(step(6, "fill", "Start Date", "2027-04-01", sel("label", "Start Date")), skills.ReadBackValue, "2027-04-01"),
		withReadBack(step(7, "fill", "End Date", "2027-04-09", sel("role+text", "group[name='End Date']")), skills.ReadBackValue, "2027-04-09"),
	}
	for i := 4; i < len(steps); i++ {
		steps[i].Role = "group"
	}
	for _, st := range steps {
		mustOK(t, ex, st)
	}
	var got struct {
		Colors, Days, Services, Tags []string
		Ship                         string
		Away                         []string
	}
	if err := json.Unmarshal([]byte(eval[string](t, ex, "state()")), &got); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want []string
	}{
		{"colors", got.Colors, []string{"Red", "Blue"}},
		{"days", got.Days, []string{"Mon", "Thu"}},
		{"services", got.Services, []string{"wash", "dry"}},
		{"tags", got.Tags, []string{"Fragile", "Priority"}},
	} {
		g, w := slices.Sorted(slices.Values(c.got)), slices.Sorted(slices.Values(c.want))
		if !slices.Equal(g, w) {
			t.Errorf("%s holds %q; want %q", c.name, c.got, c.want)
		}
	}
	if got.Ship != "3/15/2027" {
		t.Errorf("the date's sections hold %q; want 3/15/2027", got.Ship)
	}
	if !slices.Equal(got.Away, []string{"4/1/2027", "4/9/2027"}) {
		t.Errorf("the range's sections hold %q; want 4/1/2027 and 4/9/2027", got.Away)
	}

	// An item the picker does not offer fails the step, naming no item.
	out := run(t, ex, setStep(8, "combobox", "Tags", "Fragile\nBreakable", sel("id", "#tags")))
	if out.OK || strings.Contains(out.Error, "Breakable") {
		t.Errorf("a tag the picker does not offer: %+v; want a failure that names no item", out)
	}
}

// A box under a list still closing (a popup of the field before it, on
// its way out) is clicked once the list has gone, never through it: a
// click on what covers it would pick in that list instead.
func TestSetWaitsForWhatCoversIt(t *testing.T) {
	ex, _ := browser(t)
	openPage(t, ex, pages.Sets)
	eval[bool](t, ex, `(() => {
		const r = document.querySelector("fieldset").getBoundingClientRect();
		const cover = document.createElement("div");
		cover.style.cssText = "position:fixed;background:#fff;left:" + r.left + "px;top:" + r.top + "px;width:" + r.width + "px;height:" + r.height + "px";
		window.coverClicks = 0;
		cover.addEventListener("click", () => window.coverClicks++);
		document.body.appendChild(cover);
		setTimeout(() => cover.remove(), 400);
		return true; })()`)
	mustOK(t, ex, setStep(1, "group", "Services", "Wash\nDry", sel("role+text", "group[name='Services']")))
	if n := eval[int](t, ex, "coverClicks"); n != 0 {
		t.Errorf("%d clicks landed on what covered the boxes; want none", n)
	}
	var got struct{ Services []string }
	if err := json.Unmarshal([]byte(eval[string](t, ex, "state()")), &got); err != nil {
		t.Fatal(err)
	}
	if g := slices.Sorted(slices.Values(got.Services)); !slices.Equal(g, []string{"dry", "wash"}) {
		t.Errorf("services hold %q; want wash and dry", got.Services)
	}
}
