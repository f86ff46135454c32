package zoo

import (
	"context"
	"crypto/rand"
	"net/http"
	"strconv"

	"github.com/chromedp/chromedp"
)

var billings = []choice{{"monthly", "Monthly"}, {"yearly", "Yearly"}}

// wizard takes two pages: name and e-mail, then a real navigation (the
// server keeps page 1 in a session behind a cookie), then billing and
// address, then Submit.
var wizard = &Form{
	Name:  "wizard",
	Title: "Sign up",
	Widgets: []string{"two pages: page 1 (name, e-mail) Next is a POST and 303 to page 2, the server keeps page 1 in a cookie session",
		"page 2: native radio group (Billing) and address", "POST, 303 to a record page"},
	Convention: "billing_cycle as the option's label (Yearly)",
	Key:        "email",
	SameChoice: []string{"billing"},
	Columns: []Column{
		text("full_name", "name"),
		text("email", "email"),
		byLabel("billing_cycle", "billing", billings),
		text("address_line", "street"),
		text("town", "city"),
		text("zip_code", "postcode"),
	},
	fields: []field{
		{name: "name", label: "Full name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "billing", label: "Billing", required: true, check: oneOf(billings)},
		{name: "street", label: "Street", required: true},
		{name: "city", label: "City", required: true},
		{name: "postcode", label: "Postcode", required: true},
	},
	demos: [2][]string{
		{"Donald Knuth", "don.knuth@demo.example.org", "Yearly", "1 Tex Lane", "Stanford", "94305"},
		{"Radia Perlman", "radia.perlman@demo.example.org", "Yearly", "9 Spanning Tree Rd, Unit 3", "Seattle", "98101"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given + " " + family, email(given, family, i), g.choice(billings).Label,
			g.from(streets), g.from(cities), g.digits(5)}
	},
	routes: wizardRoutes,
	fill: func(ctx context.Context, base string, c cells) error {
		return chromedp.Do(ctx,
			visit(base+"/wizard/new", "#name"),
			typeInto("#name", c["full_name"]),
			typeInto("#email", c["email"]),
			click(`button[type=submit]`),
			awaitDone("#street"),
			clickText("fieldset label", c["billing_cycle"]),
			typeInto("#street", c["address_line"]),
			typeInto("#city", c["town"]),
			typeInto("#postcode", c["zip_code"]),
			click(`button[type=submit]`),
			awaitDone("#record"),
		)
	},
}

const wizardCookie = "zoo_wizard"

// wizardRoutes serves the two pages; page 1 lives in a server session
// until page 2 is submitted.
func wizardRoutes(s *Site, f *Form) {
	page1 := f.fields[:2]
	s.mux.HandleFunc("GET /wizard/new", s.page(f, "wizard.html", nil))
	s.mux.HandleFunc("POST /wizard/step1", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		in := map[string]string{}
		for _, fd := range page1 {
			in[fd.name] = r.PostForm.Get(fd.name)
		}
		if problems := validate(page1, in); problems != nil {
			s.refuse(w, f, problems)
			return
		}
		id := rand.Text()
		s.mu.Lock()
		s.sessions[id] = in
		s.mu.Unlock()
		http.SetCookie(w, &http.Cookie{Name: wizardCookie, Value: id, Path: "/wizard", HttpOnly: true, SameSite: http.SameSiteLaxMode})
		http.Redirect(w, r, "/wizard/step2", http.StatusSeeOther)
	})
	session := func(r *http.Request) (string, map[string]string) {
		c, err := r.Cookie(wizardCookie)
		if err != nil {
			return "", nil
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return c.Value, clone(s.sessions[c.Value])
	}
	s.mux.HandleFunc("GET /wizard/step2", func(w http.ResponseWriter, r *http.Request) {
		_, in := session(r)
		if in["email"] == "" {
			http.Redirect(w, r, "/wizard/new", http.StatusSeeOther)
			return
		}
		render(w, http.StatusOK, "wizard-2.html", view{Heading: "Sign up — step 2 of 2", Form: f,
			Data: map[string]any{"Name": in["name"], "Billings": billings}})
	})
	s.mux.HandleFunc("POST /wizard", func(w http.ResponseWriter, r *http.Request) {
		id, in := session(r)
		if in["email"] == "" {
			s.refuse(w, f, []string{"Your sign-up session has expired: start again from page 1"})
			return
		}
		_ = r.ParseForm()
		for _, fd := range f.fields[2:] {
			in[fd.name] = r.PostForm.Get(fd.name)
		}
		rec, problems := s.save(f, in)
		if problems != nil {
			s.refuse(w, f, problems)
			return
		}
		s.mu.Lock()
		delete(s.sessions, id)
		s.mu.Unlock()
		http.Redirect(w, r, "/wizard/records/"+strconv.Itoa(rec.ID), http.StatusSeeOther)
	})
}
