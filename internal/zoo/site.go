package zoo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// SaveDelay is how long the save-in-place form's server takes to answer:
// long enough that a replay which does not wait for the page's own sign of
// success moves on too early.
const SaveDelay = 1200 * time.Millisecond

// Site is the zoo's web server on 127.0.0.1. It stores each accepted
// submission in memory, per form. It is safe for concurrent use.
type Site struct {
	srv      *httptest.Server
	mux      *http.ServeMux
	mu       sync.Mutex
	records  map[string][]Record
	lastID   int
	sessions map[string]map[string]string // wizard session → page-1 values
	tokens   map[string]map[string]string // shuffled form token → input name → field
}

// Serve starts the site. Close it when done.
func Serve() *Site {
	s := &Site{mux: http.NewServeMux()}
	s.clear()
	for _, f := range slices.Concat(all, libAll) {
		if f.routes != nil {
			f.routes(s, f)
		} else {
			s.mux.HandleFunc("GET "+f.Path(), s.page(f, f.Name+".html", nil))
			s.mux.HandleFunc("POST /"+f.Name, s.submit(f))
		}
		s.mux.HandleFunc("GET /"+f.Name+"/records/{id}", s.recordPage(f))
	}
	s.mux.Handle("GET /lib/", cached(http.FileServerFS(bundles)))
	s.mux.HandleFunc("GET /{$}", s.index)
	s.srv = httptest.NewServer(s.mux)
	return s
}

// cached serves the library bundles as a real site serves its built
// assets, to be kept by the browser: a page load then runs the bundle its
// browser already compiled, as it does for a person filing row after row.
func cached(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		h.ServeHTTP(w, r)
	})
}

// URL is the site's base URL, like http://127.0.0.1:41234.
func (s *Site) URL() string { return s.srv.URL }

// Close stops the server; it is safe to call twice.
func (s *Site) Close() { s.srv.Close() }

// Records returns a copy of what the form stored, in the order stored.
func (s *Site) Records(form string) []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Record, len(s.records[form]))
	for i, r := range s.records[form] {
		out[i] = Record{ID: r.ID, Fields: clone(r.Fields)}
	}
	return out
}

// Reset forgets every record, wizard session and form token. Record IDs
// keep growing, so a record page of before never shows a new record.
func (s *Site) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
}

func (s *Site) clear() {
	s.records = map[string][]Record{}
	s.sessions = map[string]map[string]string{}
	s.tokens = map[string]map[string]string{}
}

// store keeps a record as it is, with no validation.
func (s *Site) store(form string, fields map[string]string) Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastID++
	r := Record{ID: s.lastID, Fields: clone(fields)}
	s.records[form] = append(s.records[form], r)
	return Record{ID: r.ID, Fields: clone(fields)}
}

// save validates a submission as the real site would and stores it; it
// returns what a person must fix, or the stored record.
func (s *Site) save(f *Form, in map[string]string) (Record, []string) {
	if problems := validate(f.fields, in); problems != nil {
		return Record{}, problems
	}
	rec := map[string]string{}
	for _, fd := range f.fields {
		rec[fd.name] = in[fd.name]
	}
	return s.store(f.Name, rec), nil
}

// validate returns what a person must fix in the fields, or nil.
func validate(fields []field, in map[string]string) []string {
	var problems []string
	for _, fd := range fields {
		switch v := in[fd.name]; {
		case strings.TrimSpace(v) == "":
			if fd.required {
				problems = append(problems, fd.label+": this field is required")
			}
		case fd.check != nil:
			if p := fd.check(v); p != "" {
				problems = append(problems, fd.label+": "+p)
			}
		}
	}
	return problems
}

// submit is the POST handler of a form: a classic POST answered by a 303
// to the record page, or a fetch with a JSON body answered in JSON.
func (s *Site) submit(f *Form) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f.slow {
			select { // the slow back end that the page must wait for
			case <-time.After(SaveDelay):
			case <-r.Context().Done():
				return
			}
		}
		in := map[string]string{}
		if f.json {
			var body map[string]any
			err := json.NewDecoder(r.Body).Decode(&body)
			if err == nil {
				in, err = flatten(body)
			}
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]any{"errors": []string{"the form sent something the server cannot read"}})
				return
			}
		} else {
			if err := r.ParseForm(); err != nil {
				s.refuse(w, f, []string{"the form sent something the server cannot read"})
				return
			}
			for _, fd := range f.fields {
				in[fd.name] = r.PostForm.Get(fd.name)
			}
		}
		s.finish(w, r, f, in)
	}
}

// finish saves a submission and answers the way the form expects.
func (s *Site) finish(w http.ResponseWriter, r *http.Request, f *Form, in map[string]string) {
	rec, problems := s.save(f, in)
	switch {
	case problems != nil && f.json:
		writeJSON(w, http.StatusBadRequest, map[string]any{"errors": problems})
	case problems != nil:
		s.refuse(w, f, problems)
	case f.json:
		writeJSON(w, http.StatusCreated, map[string]any{"id": rec.ID})
	default:
		http.Redirect(w, r, fmt.Sprintf("/%s/records/%d", f.Name, rec.ID), http.StatusSeeOther)
	}
}

// refuse answers a classic POST with the page of what to fix.
func (s *Site) refuse(w http.ResponseWriter, f *Form, problems []string) {
	render(w, http.StatusBadRequest, "error.html", view{Heading: "Could not save", Form: f, Errors: problems})
}

// recordRow is one line of a record page.
type recordRow struct{ Name, Label, Value string }

// recordPage shows a stored record with every field's value as text.
func (s *Site) recordPage(f *Form) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		s.mu.Lock()
		i := slices.IndexFunc(s.records[f.Name], func(r Record) bool { return r.ID == id })
		var rec Record
		if i >= 0 {
			rec = s.records[f.Name][i]
		}
		s.mu.Unlock()
		if i < 0 {
			http.NotFound(w, r)
			return
		}
		rows := make([]recordRow, len(f.fields))
		for i, fd := range f.fields {
			rows[i] = recordRow{fd.name, fd.label, rec.Fields[fd.name]}
		}
		render(w, http.StatusOK, "record.html", view{Heading: "Saved", Form: f, Data: map[string]any{"ID": rec.ID, "Rows": rows}})
	}
}

// page serves a form's page; data, when not nil, makes its template data
// per request.
func (s *Site) page(f *Form, file string, data func(r *http.Request) any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := view{Heading: f.Title, Form: f}
		switch {
		case data != nil:
			v.Data = data(r)
		case f.data != nil:
			v.Data = f.data()
		}
		render(w, http.StatusOK, file, v)
	}
}

func (s *Site) index(w http.ResponseWriter, _ *http.Request) {
	render(w, http.StatusOK, "index.html", view{Heading: "Form zoo", Data: map[string]any{"Forms": all, "Library": libAll}})
}

// flatten turns a JSON body into stored values: a string as it is, a list
// of strings as its items one per line (the library forms post their
// multi-selects so), a boolean as "true" or "false".
func flatten(body map[string]any) (map[string]string, error) {
	in := make(map[string]string, len(body))
	for k, v := range body {
		switch v := v.(type) {
		case string:
			in[k] = v
		case bool:
			in[k] = strconv.FormatBool(v)
		case []any:
			items := make([]string, len(v))
			for i, x := range v {
				s, ok := x.(string)
				if !ok || s == "" || strings.Contains(s, "\n") {
					return nil, fmt.Errorf("field %s: item %d is not a one-line text", k, i)
				}
				items[i] = s
			}
			in[k] = strings.Join(items, "\n")
		default:
			return nil, fmt.Errorf("field %s: a %T", k, v)
		}
	}
	return in, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
