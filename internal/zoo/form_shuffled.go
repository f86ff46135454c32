package zoo

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strings"

	"github.com/chromedp/chromedp"
)

var memberships = []choice{{"bronze", "Bronze"}, {"silver", "Silver"}, {"gold", "Gold"}}

// shuffled changes on every load: the order of its fields, their ids and
// their names are random, so a field is known only by its label. A hidden
// form token tells the server which random name means which field.
var shuffled = &Form{
	Name:  "shuffled",
	Title: "New member",
	Widgets: []string{"fields in a random order with random ids (f-83kd92) and names on every load, known only by <label for>",
		"native select (Membership)", "POST, 303 to a record page; the server maps names through a form token"},
	Convention: "level as the option's value (gold)",
	Key:        "mail",
	SameChoice: []string{"membership"},
	Columns: []Column{
		text("fname", "first_name"),
		text("lname", "last_name"),
		text("mail", "email"),
		text("town", "city"),
		byValue("level", "membership", memberships),
	},
	fields: []field{
		{name: "first_name", label: "First name", required: true},
		{name: "last_name", label: "Last name", required: true},
		{name: "email", label: "E-mail", required: true, check: isEmail},
		{name: "city", label: "City", required: true},
		{name: "membership", label: "Membership", required: true, check: oneOf(memberships)},
	},
	demos: [2][]string{
		{"Alan", "Turing", "alan.turing@demo.example.org", "Wilmslow", "silver"},
		{"Joan", "Clarke", "joan.clarke@demo.example.org", "Headington", "silver"},
	},
	gen: func(g *gen, i int) []string {
		given, family := g.name()
		return []string{given, family, email(given, family, i), g.from(cities), g.choice(memberships).Value}
	},
	routes: shuffledRoutes,
	fill: func(ctx context.Context, base string, c cells) error {
		if err := chromedp.Do(ctx, visit(base+"/shuffled/new", "form")); err != nil {
			return err
		}
		steps := []act{}
		for _, f := range []struct{ label, text string }{
			{"First name", c["fname"]}, {"Last name", c["lname"]}, {"E-mail", c["mail"]}, {"City", c["town"]},
		} {
			css, err := labelled(ctx, f.label)
			if err != nil {
				return err
			}
			steps = append(steps, typeInto(css, f.text))
		}
		css, err := labelled(ctx, "Membership")
		if err != nil {
			return err
		}
		steps = append(steps, chooseNative(css, labelOf(memberships, c["level"])),
			click(`button[type=submit]`), awaitDone("#record"))
		return chromedp.Do(ctx, steps...)
	},
}

// shuffledField is one field as one page load shows it.
type shuffledField struct {
	ID, Name, Label, Type string
	Options               []choice
}

// shuffledRoutes serves a freshly shuffled page per load and stores by the
// token's map from random names to fields.
func shuffledRoutes(s *Site, f *Form) {
	s.mux.HandleFunc("GET /shuffled/new", s.page(f, "shuffled.html", func(*http.Request) any {
		names := map[string]string{}
		var out []shuffledField
		for _, fd := range f.fields {
			sf := shuffledField{ID: "f-" + randomWord(6), Name: "x" + randomWord(8), Label: fd.label, Type: "text"}
			switch fd.name {
			case "email":
				sf.Type = "email"
			case "membership":
				sf.Type, sf.Options = "select", memberships
			}
			names[sf.Name] = fd.name
			out = append(out, sf)
		}
		for i := len(out) - 1; i > 0; i-- {
			j := rand.IntN(i + 1)
			out[i], out[j] = out[j], out[i]
		}
		token := randomWord(20)
		s.mu.Lock()
		s.tokens[token] = names
		s.mu.Unlock()
		return map[string]any{"Token": token, "Fields": out}
	}))
	s.mux.HandleFunc("POST /shuffled", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		s.mu.Lock()
		names := s.tokens[r.PostForm.Get("form_token")]
		s.mu.Unlock()
		if names == nil {
			s.refuse(w, f, []string{"This form has expired: reload the page and fill it again"})
			return
		}
		in := map[string]string{}
		for name, fd := range names {
			in[fd] = r.PostForm.Get(name)
		}
		s.finish(w, r, f, in)
	})
}

const lowerDigits = "abcdefghijklmnopqrstuvwxyz0123456789"

// randomWord is n random lower-case letters and digits.
func randomWord(n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(lowerDigits[rand.IntN(len(lowerDigits))])
	}
	return b.String()
}
