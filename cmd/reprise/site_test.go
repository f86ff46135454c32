package main

import (
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// customerSite is the web app the replay tests fill: a form whose ids
// change on every load, a server that stores each submission and refuses
// some, and a lookup page the skill's verify section reads.
type customerSite struct {
	*httptest.Server
	mu     sync.Mutex
	stored map[string][]map[string]string // email -> every submission of it
	reject map[string]bool                // emails the server refuses
	posts  int
	posted chan struct{} // closed and replaced on every post
	holds  map[string]*hold
	// The CRM's (crm_test.go): logins given, pages refused for want of
	// one, and requests to a host the skill does not allow.
	logins, denied int
	beacon         *httptest.Server
	beacons        int
}

// hold keeps the answer to a stored submission of one email from its
// browser until released: a row filed on the site, its commit not yet seen.
type hold struct{ arrived, release chan struct{} }

const customerForm = `<!doctype html><title>New customer</title>
%s
<form id="customer" method="post" action="/submit">
 <label for="fn-%[2]d">First Name</label><input id="fn-%[2]d" name="first_name">
 <label>Email <input type="email" id="em-%[2]d" name="email"></label>
 <label for="co-%[2]d">Company</label><input id="co-%[2]d" name="company">
 <label for="cc-%[2]d">Country</label><select id="cc-%[2]d" name="country"><option>Canada</option><option>France</option><option>Germany</option><option>Japan</option><option>Brazil</option></select>
 <label for="no-%[2]d">Notes</label><textarea id="no-%[2]d" name="notes"></textarea>
 <label for="ref-a">Reference</label><input id="ref-a" name="ref_a"><label for="ref-b">Reference</label><input id="ref-b" name="ref_b">
 <button type="submit">Save</button>
</form>`

func newCustomerSite(t *testing.T) *customerSite {
	s := &customerSite{stored: map[string][]map[string]string{}, reject: map[string]bool{}, posted: make(chan struct{}), holds: map[string]*hold{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /new", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, customerForm, "", rand.IntN(1_000_000))
	})
	mux.HandleFunc("POST /submit", func(w http.ResponseWriter, r *http.Request) {
		s.submit(w, r)
		s.holdFor(r.PostForm.Get("email"))
	})
	s.crm(mux)
	mux.HandleFunc("GET /saved", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `<!doctype html><p>Saved</p>`) })
	mux.HandleFunc("GET /find", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		email := r.URL.Query().Get("email")
		if len(s.stored[email]) > 0 {
			fmt.Fprintf(w, `<!doctype html><p>found %s</p>`, html.EscapeString(email))
			return
		}
		fmt.Fprint(w, `<!doctype html><p>no such customer</p>`)
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	t.Cleanup(s.beacon.Close)
	return s
}

// submit stores a submission, or refuses it.
func (s *customerSite) submit(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posts++
	close(s.posted)
	s.posted = make(chan struct{})
	email := r.PostForm.Get("email")
	if s.reject[email] {
		// Some sites say a refusal with their status, some only on
		// the page: the emails of even-numbered customers get a 409.
		if n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(email, "c"), "@example.org")); n%2 == 0 {
			w.WriteHeader(http.StatusConflict)
		}
		fmt.Fprintf(w, customerForm, `<p role="alert">Email already exists</p>`, rand.IntN(1_000_000))
		return
	}
	row := map[string]string{}
	for _, f := range []string{"first_name", "email", "company", "country", "notes"} {
		row[f] = r.PostForm.Get(f)
	}
	s.stored[email] = append(s.stored[email], row)
	http.Redirect(w, r, fmt.Sprintf("/saved?n=%d", s.posts), http.StatusSeeOther)
}

// holdFor makes a stored submission of email wait for its hold's release.
func (s *customerSite) holdFor(email string) {
	s.mu.Lock()
	h := s.holds[email]
	s.mu.Unlock()
	if h != nil {
		close(h.arrived)
		<-h.release
	}
}

// hold holds the answer to email's next submission: arrived is closed when
// it is stored, release lets the answer go.
func (s *customerSite) hold(email string) (arrived <-chan struct{}, release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &hold{arrived: make(chan struct{}), release: make(chan struct{})}
	s.holds[email] = h
	return h.arrived, sync.OnceFunc(func() { close(h.release) })
}

// skill is the test skill for this site, as a file's text.
func (s *customerSite) skill(template string) string {
	return strings.ReplaceAll(template, "{{base}}", s.URL)
}

// refuse makes the server refuse email's submissions.
func (s *customerSite) refuse(email string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reject[email] = true
}

// postCount is how many forms were posted.
func (s *customerSite) postCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.posts
}

// waitPosts waits until n forms in all were posted, or done is closed; it
// reports whether they were.
func (s *customerSite) waitPosts(n int, done <-chan struct{}) bool {
	for {
		s.mu.Lock()
		posts, posted := s.posts, s.posted
		s.mu.Unlock()
		if posts >= n {
			return true
		}
		select {
		case <-posted:
		case <-done:
			return false
		}
	}
}

// count returns how many times email was stored, and its last submission.
func (s *customerSite) count(email string) (int, map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	subs := s.stored[email]
	if len(subs) == 0 {
		return 0, nil
	}
	return len(subs), subs[len(subs)-1]
}
