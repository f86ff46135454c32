package browser

import (
	_ "embed"
	"testing"
)

//go:embed testdata/remote.html
var remotePage string

// An autocomplete whose suggestions come from a remote search shows a
// busy spinner until they do: its option is picked once the answer is in,
// and no key walks a list still on its way (antd's Select with
// showSearch: the walk ran out before the answer came, and the row failed).
func TestChooseWaitsForARemoteSearch(t *testing.T) {
	ex, _ := browser(t)
	u := openPage(t, ex, remotePage)
	for _, depot := range []string{"Cambridge North", "York"} {
		open(t, ex, u)
		mustOK(t, ex, choose(1, "combobox", "Depot", depot, sel("id", "#depot")))
		if got := eval[string](t, ex, `document.getElementById("depot").value`); got != depot {
			t.Errorf("the field holds %q; want %q", got, depot)
		}
		if n := eval[int](t, ex, "busyArrows"); n != 0 {
			t.Errorf("%d ArrowDown pressed while the search was busy; want none", n)
		}
	}
}
