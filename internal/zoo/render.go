package zoo

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"sync"
)

// pages holds every page: layout.html wraps the "body" each other file
// defines. Plain HTML with inline vanilla JS, no external resources.
//
//go:embed forms/*.html
var pages embed.FS

// view is the data of every page.
type view struct {
	Heading string
	Form    *Form
	Errors  []string
	Data    any
}

var (
	parseOnce sync.Once
	parsed    map[string]*template.Template
	parseErr  error
)

// templates parses every page once; a page that does not parse is a bug
// the tests catch on the first request.
func templates() (map[string]*template.Template, error) {
	parseOnce.Do(func() {
		files, err := pages.ReadDir("forms")
		if err != nil {
			parseErr = err
			return
		}
		parsed = map[string]*template.Template{}
		for _, e := range files {
			if e.Name() == "layout.html" {
				continue
			}
			t, err := template.ParseFS(pages, "forms/layout.html", "forms/"+e.Name())
			if err != nil {
				parseErr = err
				return
			}
			parsed[e.Name()] = t
		}
	})
	return parsed, parseErr
}

// render writes a page, or a 500 that names what failed.
func render(w http.ResponseWriter, status int, file string, v view) {
	ts, err := templates()
	var buf bytes.Buffer
	if err == nil {
		t, ok := ts[file]
		if !ok {
			http.Error(w, "no page "+file, http.StatusInternalServerError)
			return
		}
		err = t.ExecuteTemplate(&buf, "layout", v)
	}
	if err != nil {
		http.Error(w, "render "+file+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = buf.WriteTo(w)
}
