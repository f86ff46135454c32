package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// The pages the tests replay on, served by site.
const formPage = `<!doctype html><title>New customer</title>%s
<form id="f" method="post" action="/customers/new" aria-label="New customer">
 <label for="first_name">First Name</label><input id="first_name" name="first_name">
 <label>Email <input type="email" name="email"></label>
 <label for="country">Country</label><select id="country" name="country"><option value="ca">Canada</option><option value="fr">France</option></select>
 <label><input type="checkbox" id="terms" name="terms"> Terms</label>
 <label><input type="checkbox" id="news" name="news" checked> Newsletter</label>
 <label><input type="checkbox" id="ads" name="ads" checked> Ads</label>
 <label><input type="radio" name="plan" value="basic" checked> Basic</label>
 <label><input type="radio" name="plan" value="pro" id="pro"> Pro</label>
 <label for="since">Customer since</label><input type="date" id="since" name="since">
 <label for="notes">Notes</label><textarea id="notes" name="notes"></textarea>
 <button type="submit">Save</button>
</form>
<script>
 window.clicks = {};
 for (const b of document.querySelectorAll("input[type=checkbox]")) b.addEventListener("click", () => window.clicks[b.id] = (window.clicks[b.id] || 0) + 1);
 window.changes = 0; document.getElementById("first_name").addEventListener("change", () => window.changes++);
</script>`

// dynamicPage's ids change on every load, as a framework's do.
const dynamicPage = `<!doctype html><form>
 <label for="x">Company</label><input id="x" name="company">
 <label for="y">City</label><input id="y">
</form><script>
 for (const l of document.querySelectorAll("label")) { const i = document.getElementById(l.htmlFor);
  i.id = "input-" + Math.random().toString(16).slice(2, 12); l.htmlFor = i.id; }
</script>`

// dupPage labels two fields Name; only their names tell them apart.
const dupPage = `<!doctype html><form>
 <fieldset><legend>Billing</legend><label>Name <input name="billing_name"></label></fieldset>
 <fieldset><legend>Shipping</legend><label>Name: <input name="shipping_name"></label></fieldset>
</form>`

// hiddenPage has two elements with one id, one of them not displayed.
const hiddenPage = `<!doctype html><form>
 <input id="code" name="old_code" style="display:none"><input id="code" name="code" aria-label="Code">
 <input id="gone" style="visibility:hidden"><input id="empty" style="width:0;height:0;border:0;padding:0">
</form>`

// rewritePage's script rewrites the field when it changes.
const rewritePage = `<!doctype html><label for="sku">SKU</label><input id="sku">
<script>document.getElementById("sku").addEventListener("change", (e) => e.target.value = "X-" + e.target.value);</script>`

// batchPage tests batches: events are logged in order; Code takes only
// what is typed key by key (as a script that filters keys does); choosing
// a Kind adds a field, as a form that grows does.
const batchPage = `<!doctype html><form>
 <label for="name">Name</label><input id="name">
 <label for="code">Code</label><input id="code">
 <label for="kind">Kind</label><select id="kind"><option value="">Choose</option><option>Company</option><option>Person</option></select>
 <span id="more"></span>
 <label for="city">City</label><input id="city">
 <label for="phone">Phone</label><input id="phone">
</form><script>
 // Phone formats itself as keys come, as masking scripts do.
 const phone = document.getElementById("phone");
 phone.addEventListener("keyup", () => { const d = phone.value.replace(/\D/g, "");
  if (d.length === 10) phone.value = "(" + d.slice(0, 3) + ") " + d.slice(3, 6) + "-" + d.slice(6); });
 window.log = [];
 for (const ev of ["focus", "input", "change", "blur"]) document.addEventListener(ev, (e) => e.target.id && window.log.push(e.target.id + ":" + ev), true);
 const code = document.getElementById("code"); let keyed = false;
 code.addEventListener("keydown", () => keyed = true);
 code.addEventListener("input", () => { if (!keyed) code.value = ""; });
 document.getElementById("kind").addEventListener("change", (e) => {
  if (e.target.value === "Company") document.getElementById("more").innerHTML = '<label for="vat">VAT</label><input id="vat">';
 });
</script>`

// shadowPage has a field in an open shadow root and one in a same-origin frame.
const shadowPage = `<!doctype html><div id="host"></div><iframe src="/side" style="width:400px;height:100px"></iframe>
<script>const r = document.getElementById("host").attachShadow({mode: "open"});
r.innerHTML = '<label for="ref">Reference</label><input id="ref">';</script>`
const sidePage = `<!doctype html><label for="vat">VAT number</label><input id="vat">`

// widgetsPage has a control of every kind (testdata/widgets.html): native
// radios (one styled, its input hidden) and selects (one with an empty
// choice), an ARIA radio group, checkbox, switch (slow to answer) and
// toggle button, a listbox, a select-only combobox, an autocomplete whose
// suggestions come late, a menu of radios. It saves through fetch (201, or
// 400 for the name "taken"), resets itself and shows "Saved".
//
//go:embed testdata/widgets.html
var widgetsPage string

// site is the test web site: it counts the posts of the form and refuses
// an email it already has, as a server-side check would.
type site struct {
	*httptest.Server
	mu    sync.Mutex
	posts []url.Values
	saved []map[string]string // what the widgets page saved
}

func newSite() *site {
	s := &site{}
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, body) }
	}
	mux.HandleFunc("GET /customers/new", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintf(w, formPage, "") })
	mux.HandleFunc("POST /customers/new", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		s.mu.Lock()
		s.posts = append(s.posts, r.PostForm)
		s.mu.Unlock()
		if r.PostForm.Get("email") == "taken@example.com" {
			fmt.Fprintf(w, formPage, `<p role="alert">Email already exists</p>`)
			return
		}
		http.Redirect(w, r, "/customers/42", http.StatusSeeOther)
	})
	// The same form on a site that takes 300 ms to confirm a row.
	mux.HandleFunc("GET /customers/slow/new", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, strings.Replace(fmt.Sprintf(formPage, ""), `action="/customers/new"`, `action="/customers/slow"`, 1))
	})
	mux.HandleFunc("POST /customers/slow", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		time.Sleep(300 * time.Millisecond)
		s.mu.Lock()
		s.posts = append(s.posts, r.PostForm)
		s.mu.Unlock()
		http.Redirect(w, r, "/customers/42", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /customers/42", page(`<!doctype html><h1>Customer saved</h1>`))
	mux.HandleFunc("GET /customers/{name}/view", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><p>Customer %s</p>`, html.EscapeString(r.PathValue("name")))
	})
	// A link to a slow page whose field has the same id as this page's.
	mux.HandleFunc("GET /links", page(`<!doctype html><input id="first_name" aria-label="First Name"><a href="/slow">Next</a>`))
	mux.HandleFunc("GET /slow", func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(300 * time.Millisecond)
		fmt.Fprint(w, `<!doctype html><p>Step two</p><input id="first_name" aria-label="First Name">`)
	})
	mux.HandleFunc("GET /widgets", page(widgetsPage))
	mux.HandleFunc("POST /widgets/save", func(w http.ResponseWriter, r *http.Request) {
		var rec map[string]string
		if err := json.NewDecoder(r.Body).Decode(&rec); err != nil {
			http.Error(w, "malformed", http.StatusBadRequest)
			return
		}
		if rec["full_name"] == "taken" {
			http.Error(w, "that name is taken", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.saved = append(s.saved, rec)
		s.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id": 1}`)
	})
	mux.HandleFunc("GET /dynamic", page(dynamicPage))
	mux.HandleFunc("GET /dup", page(dupPage))
	mux.HandleFunc("GET /hidden", page(hiddenPage))
	mux.HandleFunc("GET /rewrite", page(rewritePage))
	mux.HandleFunc("GET /shadow", page(shadowPage))
	mux.HandleFunc("GET /batch", page(batchPage))
	mux.HandleFunc("GET /side", page(sidePage))
	mux.HandleFunc("GET /upload", page(`<!doctype html><label for="doc">Contract</label><input type="file" id="doc">`))
	s.Server = httptest.NewServer(mux)
	return s
}

func (s *site) postCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.posts)
}

func (s *site) lastSaved() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.saved) == 0 {
		return nil
	}
	return s.saved[len(s.saved)-1]
}

func (s *site) savedCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.saved)
}

func (s *site) lastPost() url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.posts) == 0 {
		return nil
	}
	return s.posts[len(s.posts)-1]
}

// shared is the one browser the tests reuse, started by TestMain.
var shared struct {
	ex   *Executor
	site *site
	skip string
}

func TestMain(m *testing.M) {
	if _, err := chromium.Find(); err != nil {
		fmt.Fprintln(os.Stderr, "!!! replay/browser: SKIPPING the browser tests: no Chromium here:", err)
		shared.skip = err.Error()
		os.Exit(m.Run())
	}
	shared.site = newSite()
	dir, err := os.MkdirTemp("", "reprise-browser-test")
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	shared.ex, err = New(ctx, Options{ProfileDir: dir + "/profile", FindTimeout: 300 * time.Millisecond, NoSandbox: true})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "start the shared browser:", err)
		os.Exit(1)
	}
	code := m.Run()
	_ = shared.ex.Close()
	shared.site.Close()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// browser returns the shared executor and site, or skips loudly.
func browser(t testing.TB) (*Executor, *site) {
	t.Helper()
	if shared.skip != "" {
		t.Skip("!!! no Chromium on this machine, the browser executor is NOT tested: " + shared.skip)
	}
	return shared.ex, shared.site
}
