package skills

import (
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// accents removes combining marks after canonical decomposition: é is e.
var accents = runes.Remove(runes.In(unicode.Mn))

// Loose is a label or a cell as matching one to the other reads it: case,
// accents, runs of spaces, and a trailing colon or asterisk are ignored.
// "Côte d'Ivoire", "cote d'ivoire" and " COTE  D'IVOIRE:" are one.
func Loose(s string) string {
	t := transform.Chain(norm.NFD, accents, norm.NFC)
	if out, _, err := transform.String(t, s); err == nil {
		s = out
	}
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimSpace(strings.TrimRight(s, ":*"))
}
