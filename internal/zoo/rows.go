package zoo

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"
)

// Rows returns n generated CSV rows for the form, the same for the same
// seed. Each row's key is unique and differs from the demonstrations'.
// Values are fake but awkward on purpose: accents, apostrophes, commas and
// quotes, optional cells left empty, a line break in a notes cell.
func (f *Form) Rows(n int, seed int64) (header []string, rows [][]string) {
	h := fnv.New64a()
	h.Write([]byte(f.Name))
	g := &gen{rand.New(rand.NewPCG(uint64(seed), h.Sum64()))}
	for i := range n {
		rows = append(rows, f.gen(g, i))
	}
	return f.Header(), rows
}

// gen draws fake values for rows.
type gen struct{ r *rand.Rand }

var (
	givenNames = []string{"Ada", "Alan", "Zoë", "José", "Björn", "Chloé", "Mary", "Kwame", "Aiko",
		"Liam", "Fatima", "Noah", "Élodie", "Raj", "Sofia", "Mateo", "Ingrid", "Yusuf", "Maeve", "Chen"}
	familyNames = []string{"Lovelace", "O'Brien", "García", "Nguyen", "Okafor", "Müller", "Smith",
		"Da Silva", "Kowalski", "Tanaka", "Johnson", "Haddad", "Dubois", "Patel", "Rossi", "Van Dyke"}
	companies = []string{"Acme Corp", "Hill, Baker & Sons", `"Blue Sky" Ltd`, "O'Neil Logistics",
		"Nordwind GmbH", "Café Olé", "Smith & Co, Inc.", "Pied Piper", `The "Best" Widgets`, "Globex"}
	streets = []string{"12 Main St", "400 Oak Avenue, Apt 4", "7 Elm Rd", "88 Harbor Blvd, Suite 200",
		"1 Infinite Loop", "350 Fifth Avenue", "9 Rue de l'Église", "221B Baker Street"}
	cities = []string{"Springfield", "Portland", "Austin", "Boulder", "Madison", "Savannah", "Tacoma", "Ann Arbor"}
	titles = []string{"Buyer", "VP, Sales", `Head of "Growth"`, "Office manager", "CTO", "Accountant"}
	notes  = []string{"Prefers e-mail.", "Call after 5pm.\nUse the side door.", `Asked for the "premium" pack, twice.`,
		"Billing: quarterly, net 30.", "Met at the Boston fair.\nFollow up in May."}
)

func (g *gen) from(list []string) string { return list[g.r.IntN(len(list))] }

// sometimes is true with probability p.
func (g *gen) sometimes(p float64) bool { return g.r.Float64() < p }

// maybe returns s, or "" for an optional cell left empty.
func (g *gen) maybe(s string, p float64) string {
	if g.sometimes(p) {
		return ""
	}
	return s
}

func (g *gen) choice(cs []choice) choice { return cs[g.r.IntN(len(cs))] }

// name returns a given and a family name.
func (g *gen) name() (given, family string) { return g.from(givenNames), g.from(familyNames) }

// email is unique for row i and never a demonstration's.
func email(given, family string, i int) string {
	return fmt.Sprintf("%s.%s.%d@example.com", slug(given), slug(family), i+1)
}

// slug keeps the ASCII letters of s, lower-cased and unaccented.
func slug(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r
		}
		return -1
	}, fold(s))
}

// day returns a date between the years, as YYYY-MM-DD.
func (g *gen) day(fromYear, toYear int) string {
	start := time.Date(fromYear, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(toYear+1, 1, 1, 0, 0, 0, 0, time.UTC)
	days := int(end.Sub(start).Hours() / 24)
	return start.AddDate(0, 0, g.r.IntN(days)).Format(time.DateOnly)
}

func (g *gen) digits(n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(byte('0' + g.r.IntN(10)))
	}
	return b.String()
}

// phone writes a US number the way spreadsheets do, in one of several styles.
func (g *gen) phone() string {
	a, b, c := fmt.Sprint(200+g.r.IntN(800)), fmt.Sprint(200+g.r.IntN(800)), g.digits(4)
	switch g.r.IntN(4) {
	case 0:
		return a + "-" + b + "-" + c
	case 1:
		return "(" + a + ") " + b + "-" + c
	case 2:
		return a + "." + b + "." + c
	}
	return "+1 " + a + " " + b + " " + c
}
