// Package interoptest serves the local form the import and export round
// trips fill: the interop package's tests and the CLI's run it.
package interoptest

import (
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Site is a local customer form for round trips: text fields, an
// email, a select whose options' values differ from their labels, a
// checkbox, a note field inside a shadow root and a reference field inside
// a same-origin iframe (both copied into the form when it is sent), and a
// Save button whose submit moves to the saved customer's page. It records
// every customer filed, in order.
type Site struct {
	URL string
	mu  sync.Mutex
	rec []map[string]string
}

// Fields are the fields a filed customer holds.
var Fields = []string{"first_name", "email", "plan", "newsletter", "note", "reference"}

// NewSite serves the form until the test ends.
func NewSite(t testing.TB) *Site {
	s := &Site{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /new", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, newPage)
	})
	mux.HandleFunc("GET /frame", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><body><label for="reference">Reference</label> <input id="reference" name="reference"></body></html>`)
	})
	mux.HandleFunc("POST /customers", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		row := map[string]string{}
		for _, f := range Fields {
			row[f] = r.PostForm.Get(f)
		}
		s.mu.Lock()
		s.rec = append(s.rec, row)
		n := len(s.rec)
		s.mu.Unlock()
		http.Redirect(w, r, fmt.Sprintf("/customers/%d", n), http.StatusSeeOther)
	})
	mux.HandleFunc("GET /customers/{n}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Customer %s</title></head><body><h1>Customer created</h1><a href="/new">New customer</a></body></html>`, html.EscapeString(r.PathValue("n")))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Filed returns the customers filed so far.
func (s *Site) Filed() []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]string(nil), s.rec...)
}

// RowsEqual says what differs between the customers filed and want, or "".
func RowsEqual(got, want []map[string]string) string {
	var b strings.Builder
	if len(got) != len(want) {
		fmt.Fprintf(&b, "%d customers filed, want %d\n", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		for _, f := range Fields {
			if got[i][f] != want[i][f] {
				fmt.Fprintf(&b, "customer %d: %s is %q, want %q\n", i+1, f, got[i][f], want[i][f])
			}
		}
	}
	return b.String()
}

const newPage = `<!doctype html>
<html><head><title>New customer</title></head>
<body>
<h1>New customer</h1>
<form id="customer" method="post" action="/customers">
  <p><label for="first_name">First name</label> <input id="first_name" name="first_name" required></p>
  <p><label for="email">Email</label> <input id="email" name="email" type="email" required></p>
  <p><label for="plan">Plan</label>
    <select id="plan" name="plan">
      <option value="">Choose one</option>
      <option value="basic">Basic</option>
      <option value="pro">Professional</option>
      <option value="ent">Enterprise</option>
    </select></p>
  <p><input id="newsletter" name="newsletter" type="checkbox" value="yes"> <label for="newsletter">Send the newsletter</label></p>
  <note-field></note-field>
  <iframe id="refs" src="/frame" title="Reference"></iframe>
  <input type="hidden" name="note">
  <input type="hidden" name="reference">
  <p><button type="submit">Save</button></p>
</form>
<script>
customElements.define("note-field", class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({ mode: "open" });
    root.innerHTML = '<p><label for="note">Note</label> <input id="note"></p>';
  }
});
document.getElementById("customer").addEventListener("submit", (e) => {
  const f = e.target;
  f.elements.note.value = document.querySelector("note-field").shadowRoot.getElementById("note").value;
  f.elements.reference.value = document.getElementById("refs").contentDocument.getElementById("reference").value;
});
</script>
</body></html>`
