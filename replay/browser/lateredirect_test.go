package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// TestNavigateAfterALateRedirect: the last row's page sends the tab to its
// record a moment after the person's click (as a form's script does once
// its POST answered), while the next row's navigate is still loading its
// page. The click's user activation lets the page's navigation cancel the
// navigate. The navigate ends on its own page, and the row's field is
// there.
func TestNavigateAfterALateRedirect(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /saved", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><button id="save" onclick="setTimeout(() => { location.href = '/records/1' }, 300)">Save</button>`)
	})
	mux.HandleFunc("GET /records/1", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><p>record 1</p>`)
	})
	mux.HandleFunc("GET /new", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(1500 * time.Millisecond) // a page slower than the redirect
		fmt.Fprint(w, `<!doctype html><label>Guest name <input id="guest"></label>`)
	})
	site := httptest.NewServer(mux)
	defer site.Close()
	ex := launch(t, nil)

	mustOK(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: site.URL + "/saved"}})
	// A person's click: the page's script may navigate for a while after.
	mustOK(t, ex, step(1, "click", "Save", "", sel("id", "#save")))
	if out := run(t, ex, replay.Step{Index: 2, Step: skills.Step{Action: "navigate", Value: site.URL + "/new"}}); !out.OK {
		t.Fatalf("navigate while the last page redirects: %+v; want it done", out)
	}
	out := run(t, ex, step(3, "fill", "Guest name", "Ada", sel("id", "#guest")))
	if !out.OK {
		t.Fatalf("fill after the navigate: %+v; want the field on the page the step opened", out)
	}
}

func TestSamePage(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"http://h:1/new", "http://h:1/new", true},
		{"http://h:1", "http://h:1/", true},
		{"http://H:1/new?x=1#f", "http://h:1/new", true},
		{"http://h:1/new", "http://h:1/records/1", false},
		{"https://h:1/new", "http://h:1/new", false},
		{"http://h:2/new", "http://h:1/new", false},
		{"http://h:1/a%20b", "http://h:1/a b", true},
		{"::", "http://h:1/", false},
	} {
		if got := samePage(tc.a, tc.b); got != tc.want {
			t.Errorf("samePage(%q, %q) = %v; want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
