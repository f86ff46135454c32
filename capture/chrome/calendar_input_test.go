package chrome_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/events"
)

// calendarInputPage has a text field whose calendar sets it without an
// input event, keeping the focus in it (antd's DatePicker), then a box.
const calendarInputPage = `<!doctype html><title>Arrival</title>
<form onsubmit="return false">
 <label for="arrive">Arrive</label> <input id="arrive" autocomplete="off">
 <div id="pop" hidden><table role="grid"><tbody id="days"></tbody></table></div>
 <p><label><input type="checkbox" id="late"> Late check-in</label></p>
 <button type="submit">Save</button>
</form>
<script>
const input = document.getElementById("arrive"), pop = document.getElementById("pop");
let rows = "";
for (let w = 0; w < 5; w++) {
  rows += "<tr>";
  for (let k = 1; k <= 7; k++) { const d = 7 * w + k; rows += d <= 31 ? '<td><button type="button">' + d + "</button></td>" : "<td></td>"; }
  rows += "</tr>";
}
document.getElementById("days").innerHTML = rows;
input.addEventListener("focus", () => { pop.hidden = false; });
pop.addEventListener("mousedown", (e) => e.preventDefault()); // the focus stays in the field
pop.addEventListener("click", (e) => {
  const b = e.target.closest("button");
  if (!b) return;
  const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  set.call(input, "2027-03-" + b.textContent.padStart(2, "0")); // no input event, as a framework sets it
  pop.hidden = true;
});
</script>`

// TestCalendarSetFieldKeepsItsPlace: a date a calendar put into a text
// field without an input event is recorded in its place, before the box
// clicked after it (it used to come only from the submit's safety net,
// after the box, and replay then filled the box under an open calendar).
func TestCalendarSetFieldKeepsItsPlace(t *testing.T) {
	d := demonstrate(t, calendarInputPage)
	err := playLogged(d.tab, t,
		chromedp.Navigate(d.url),
		chromedp.WaitVisible(chromedp.CSS("#arrive")),
		chromedp.Click(chromedp.CSS("#arrive")),
		clickText("#days button", "15"),
		chromedp.Click(chromedp.CSS("#late")),
		clickText("button", "Save"),
	)
	if err != nil {
		t.Fatalf("play the person: %v", err)
	}
	rec := d.stop(t)
	var got []string
	for _, s := range rec.Steps {
		if s.Enrichment == nil || s.Action == events.ActionNavigate || s.Action == events.ActionSubmit || s.Enrichment.Label == "Save" {
			continue
		}
		line := s.Action + " " + s.Enrichment.Label
		if s.Value != nil {
			line += " = " + s.Value.Raw
		}
		got = append(got, line)
	}
	want := []string{"fill Arrive = 2027-03-15", "click Late check-in = checked"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
