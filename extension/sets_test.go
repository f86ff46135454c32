package extension

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/pages"
)

// TestDOMModelSets reads the controls that hold a set and the date in
// sections of pages.Sets through the model: the unit each control is, the
// set it holds (a tag picker's chips), and the date as ISO.
func TestDOMModelSets(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	read := openModel(t, pages.Sets)
	for _, tc := range []struct{ expr, want string }{
		{`[u("#colors").how, D.isMulti(u("#colors")), D.chosenSet(u("#colors"))].join()`, "select,true,Green"},
		{`[u("[role=listbox]").how, D.isMulti(u("[role=listbox]")), D.chosenSet(u("[role=listbox]"))].join()`, "listbox,true,Tue"},
		{`[u("fieldset input").how, u("fieldset input").role, D.labelOf(u("fieldset input")), D.isMulti(u("fieldset input")), D.chosenSet(u("fieldset input"))].join()`,
			"checks,group,Services,true,Iron"},
		{`[u("#tags").how, D.isMulti(u("#tags")), D.stateOf(u("#tags"))].join()`, "autocomplete,true,Gift"},
		{`[u("#ship [data-type=day]").kind, D.labelOf(u("#ship [data-type=day]")), u("#ship").el.id].join()`, "date,Ship by,ship"},
		{`D.stateOf(u("#ship"))`, ""},
		// A range's halves are dates of their own, named by their sections.
		{`[u("#away-start-day").kind, D.labelOf(u("#away-start-day")), u("#away-start-day").el.id, D.labelOf(u("#away-end-year")), u("#away-end-year").el.id, u("#away-start").kind].join()`,
			"date,Start Date,away-start,End Date,away-end,date"},
		{`(() => { for (const [p, v] of [["month", 3], ["day", 15], ["year", 2027]]) { const s = $("#ship [data-type=" + p + "]");
			s.setAttribute("aria-valuenow", v); s.setAttribute("aria-valuetext", String(v)); }
			return D.stateOf(u("#ship")); })()`, "2027-03-15"},
		// A select a widget mirrors for the form's submit, kept in a box of
		// one pixel that hides its overflow (React Aria's hidden select), is
		// no field of the person's; the same select in view is.
		{`(() => { const box = document.createElement("div"); box.setAttribute("aria-hidden", "true");
			box.style.cssText = "position:fixed;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)";
			box.innerHTML = "<label><select tabindex=-1><option>A</option><option>B</option></select></label>";
			$("#f").appendChild(box); const m = D.mirror(D.unitOf(box.querySelector("select")));
			box.removeAttribute("style"); const shown = D.mirror(D.unitOf(box.querySelector("select"))); box.remove();
			return [m, shown].join(); })()`, "true,false"},
		// A lone box is no group; a quantity spinner is no date.
		{`(() => { const s = document.createElement("span"); s.setAttribute("role", "spinbutton"); s.setAttribute("aria-valuemax", "99");
			$("#f").appendChild(s); return D.unitOf(s).kind; })()`, "range"},
	} {
		if got := read(tc.expr); got != tc.want {
			t.Errorf("%s = %q; want %q", tc.expr, got, tc.want)
		}
	}
}
