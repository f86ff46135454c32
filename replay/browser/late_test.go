package browser

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// latePage is an autocomplete whose suggestions come late (window.delay ms
// after the last key), filter on each key, and re-render twice once shown;
// a click on one fills the field and the hidden value the form posts.
const latePage = `<!doctype html><form id="f">
<label for="state">State</label>
<input id="state" role="combobox" aria-autocomplete="list" aria-controls="list" aria-expanded="false" autocomplete="off">
<ul id="list" role="listbox" aria-label="States" hidden></ul>
<input type="hidden" id="chosen" name="state">
</form>
<script>
const states = ["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota"];
const input = document.getElementById("state"), list = document.getElementById("list");
window.delay = 800;
let timers = [];
function render(shuffle) {
  const q = input.value.toLowerCase();
  const hits = states.filter((s) => s.toLowerCase().startsWith(q));
  if (shuffle) hits.reverse();
  list.innerHTML = hits.map((s) => '<li role="option" tabindex="-1">' + s + '</li>').join("");
  list.hidden = hits.length === 0;
  input.setAttribute("aria-expanded", String(!list.hidden));
}
input.addEventListener("input", () => {
  timers.forEach(clearTimeout);
  list.hidden = true; list.innerHTML = "";
  document.getElementById("chosen").value = "";
  timers = [setTimeout(() => render(true), window.delay), setTimeout(() => render(false), window.delay + 60), setTimeout(() => render(false), window.delay + 120)];
});
list.addEventListener("mousedown", (e) => e.preventDefault());
list.addEventListener("click", (e) => {
  const li = e.target.closest("[role=option]");
  if (!li) return;
  input.value = li.textContent; document.getElementById("chosen").value = li.textContent;
  list.hidden = true; input.setAttribute("aria-expanded", "false");
});
</script>`

// hog keeps one core busy until the test ends.
func hog(t *testing.T) {
	t.Helper()
	cmd := exec.Command("sh", "-c", "while :; do :; done")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
}

// An autocomplete whose list comes late and re-renders under the pointer
// is waited on, not timed: 60 rows under two CPU hogs, none failed, each
// holding its own state. Every tenth list comes 800 ms late. The hogs
// take the machine from every package testing beside this one too, so
// they run for as few rows as show that.
func TestAutocompleteThatComesLate(t *testing.T) {
	const lateRows = 60
	ex, _ := browser(t)
	s := newStore(t, latePage)
	open(t, ex, s.URL+"/new")
	hog(t)
	hog(t)
	states := []string{"Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota"}
	rng := rand.New(rand.NewPCG(31, 8))
	failed := 0
	for row := 1; row <= lateRows; row++ {
		delay := 800
		if row%10 != 0 {
			delay = rng.IntN(200)
		}
		want := states[rng.IntN(len(states))]
		eval[bool](t, ex, fmt.Sprintf(`window.delay = %d; document.getElementById("state").value = ""; document.getElementById("chosen").value = ""; true`, delay))
		st := replay.Step{Row: row, Index: 0, Step: skills.Step{Action: "select", Role: "combobox", Label: "State", Value: want,
			Selectors: []skills.Selector{sel("id", "#state")}, ReadBack: &skills.ReadBack{Kind: skills.ReadBackSelected, Expect: want}}}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		out, err := ex.Do(ctx, st)
		cancel()
		if err != nil {
			t.Fatalf("row %d: %v", row, err)
		}
		got := eval[string](t, ex, `document.getElementById("chosen").value`)
		if !out.OK || got != want {
			failed++
			t.Errorf("row %d (list %d ms late): outcome %+v; the form holds %q, want %q", row, delay, out, got, want)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d rows failed", failed, lateRows)
	}
}
