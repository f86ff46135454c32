package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
)

// The CRM is the customer site's pages behind a login, as the hub's
// workers file them: /crm/login gives the cookie a person's login would,
// /crm/new refuses a browser without it, and the form takes a document
// (multipart) and, on rows marked for review, an approval code. Its page
// loads an image from another host ("localhost"), which the skill's
// allowed domains keep out.
const crmForm = `<!doctype html><title>New contact</title>
<form id="contact" method="post" action="/crm/submit" enctype="multipart/form-data">
 <label for="fn-%[1]d">First Name</label><input id="fn-%[1]d" name="first_name">
 <label for="em-%[1]d">Email</label><input type="email" id="em-%[1]d" name="email">
 <label for="doc-%[1]d">Document</label><input type="file" id="doc-%[1]d" name="document">
 <label for="ap-%[1]d">Approval</label><input id="ap-%[1]d" name="approval">
 <button type="submit">Save</button>
</form>
<img alt="" src="%[2]s/pixel.gif">`

const crmCookie = "crm_session"

func (s *customerSite) crm(mux *http.ServeMux) {
	s.beacon = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		s.mu.Lock()
		s.beacons++
		s.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	beacon := strings.Replace(s.beacon.URL, "127.0.0.1", "localhost", 1)
	mux.HandleFunc("GET /crm/login", func(w http.ResponseWriter, _ *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: crmCookie, Value: "person", Path: "/", MaxAge: 86400, HttpOnly: true})
		fmt.Fprint(w, `<!doctype html><p>Logged in</p><img alt="" src="/crm/welcome.gif">`)
	})
	// The login page's image, asked for with the cookie: the browser
	// holds the login.
	mux.HandleFunc("GET /crm/welcome.gif", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie(crmCookie); err == nil && c.Value == "person" {
			s.mu.Lock()
			s.logins++
			s.mu.Unlock()
		}
		w.WriteHeader(http.StatusNoContent)
	})
	loggedIn := func(w http.ResponseWriter, r *http.Request) bool {
		if c, err := r.Cookie(crmCookie); err == nil && c.Value == "person" {
			return true
		}
		s.mu.Lock()
		s.denied++
		s.mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `<!doctype html><title>Log in</title><p>Log in first</p>`)
		return false
	}
	mux.HandleFunc("GET /crm/new", func(w http.ResponseWriter, r *http.Request) {
		if loggedIn(w, r) {
			fmt.Fprintf(w, crmForm, rand.IntN(1_000_000), beacon)
		}
	})
	mux.HandleFunc("POST /crm/submit", func(w http.ResponseWriter, r *http.Request) {
		if !loggedIn(w, r) {
			return
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		row := map[string]string{}
		for _, f := range []string{"first_name", "email", "approval"} {
			row[f] = r.PostForm.Get(f)
		}
		if f, h, err := r.FormFile("document"); err == nil {
			b, _ := io.ReadAll(f)
			_ = f.Close()
			row["document"] = h.Filename + ":" + string(b)
		}
		email := row["email"]
		s.mu.Lock()
		s.posts++
		close(s.posted)
		s.posted = make(chan struct{})
		s.stored[email] = append(s.stored[email], row)
		n := s.posts
		s.mu.Unlock()
		http.Redirect(w, r, fmt.Sprintf("/saved?n=%d", n), http.StatusSeeOther)
		s.holdFor(email)
	})
}
