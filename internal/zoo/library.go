package zoo

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"slices"
)

// The library forms are built from the stock components of three npm
// component libraries (antd, React Aria Components, Mantine). Their
// sources are in libforms/; scripts/zoo-bundle bundles them into
// forms/lib, which is committed and embedded here, so no test needs npm.
//
//go:embed forms/lib
var libFiles embed.FS

// bundles is forms/lib, served at /lib/.
var bundles = func() fs.FS {
	sub, err := fs.Sub(libFiles, "forms")
	if err != nil {
		panic(err) // the embed directive names forms/lib, so it is there
	}
	return sub
}()

// libAll is every library form, in the order of their libraries.
var libAll = []*Form{antdSignup, antdBooking, antdShipment, ariaVolunteer, ariaTrip, ariaLeave, mantineGift, mantineClub}

// LibraryForms returns the forms built from stock components of antd,
// React Aria Components and Mantine. They are not among Forms: they need
// a recorder and a replayer that know these widgets. Each submits JSON
// (lists as the chosen labels, dates as YYYY-MM-DD) and then opens its
// record page, as the zoo's fetch forms do.
func LibraryForms() []*Form { return slices.Clone(libAll) }

// libPage is a library form's page: the bundle draws the form into #app
// from the options in #zoo-data.
var libPage = template.Must(template.New("lib").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} — Northwind CRM</title>
{{range .CSS}}<link rel="stylesheet" href="/lib/{{.}}">
{{end}}<style>
 body { font: 16px/1.45 system-ui, sans-serif; margin: 0; color: #1d2430; background: #f4f6f9; }
 .top { background: #23395d; color: #fff; padding: .7em 2em; font-weight: 600; }
 main { max-width: 36em; margin: 1.5em auto; background: #fff; padding: 1.2em 2em 2em; border-radius: 6px; box-shadow: 0 1px 3px #0002; }
 h1 { font-size: 1.5em; margin: .2em 0 .8em; }
 .zoo-alert { margin-top: 1em; padding: .6em .9em; border-radius: 4px; background: #fde8e8; color: #8a1c1c; }
 .zoo-alert:empty { display: none; }
</style>
</head>
<body>
<header class="top">Northwind CRM</header>
<main>
<h1>{{.Title}}</h1>
<div id="app"></div>
</main>
<script type="application/json" id="zoo-data">{{.Data}}</script>
<script src="/lib/{{.Lib}}.js"></script>
</body>
</html>
`))

// libRoutes serves a library form from the bundle of lib (and its CSS
// files), with data as the options the bundle draws.
func libRoutes(lib string, css []string, data func() map[string]any) func(s *Site, f *Form) {
	return func(s *Site, f *Form) {
		s.mux.HandleFunc("GET "+f.Path(), func(w http.ResponseWriter, r *http.Request) {
			d := data()
			d["form"] = f.Name
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			err := libPage.Execute(w, map[string]any{"Title": f.Title, "CSS": css, "Lib": lib, "Data": d})
			if err != nil {
				http.Error(w, "render "+f.Name+": "+err.Error(), http.StatusInternalServerError)
			}
		})
		s.mux.HandleFunc("POST /"+f.Name, s.submit(f))
	}
}
