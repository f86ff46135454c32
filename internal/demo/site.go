package main

import (
	_ "embed"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// formPage is the bundled sample form.
//
//go:embed form.html
var formPage string

// site is the sample web app: it stores each customer saved.
type site struct {
	*httptest.Server
	mu     sync.Mutex
	stored int
}

func newSite() *site {
	s := &site{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /customers/new", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, formPage) })
	mux.HandleFunc("POST /customers", func(w http.ResponseWriter, r *http.Request) {
		if r.ParseForm() != nil || r.PostForm.Get("email") == "" {
			http.Error(w, "a customer needs an email", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.stored++
		s.mu.Unlock()
		http.Redirect(w, r, "/customers/saved", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /customers/saved", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<!doctype html><title>Saved — Acme CRM</title><p id="saved">Customer saved. <a href="/customers/new">Add another</a></p>`)
	})
	s.Server = httptest.NewServer(mux)
	return s
}

func (s *site) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stored
}
