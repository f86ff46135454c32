package termtext

import (
	"strings"
	"testing"
	"unicode"
)

func TestLineAndBlock(t *testing.T) {
	cases := []struct{ in, line, block string }{
		{"Full name", "Full name", "Full name"},
		{"Québec – 東京", "Québec – 東京", "Québec – 東京"},
		{"Email\x1b[2J\x1b]0;pwned\x07", `Email\x1b[2J\x1b]0;pwned\x07`, `Email\x1b[2J\x1b]0;pwned\x07`},
		{"a\nb\tc\rd", `a\x0ab\x09c\x0dd`, "a\nb\tc\\x0dd"},
		{"C1\u009b31m", `C1\x9b31m`, `C1\x9b31m`},
		{"pay \u202eevil\u202c", `pay \u202eevil\u202c`, `pay \u202eevil\u202c`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"del\x7f", `del\x7f`, `del\x7f`},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.line {
			t.Errorf("Line(%q) = %q; want %q", c.in, got, c.line)
		}
		if got := Block(c.in); got != c.block {
			t.Errorf("Block(%q) = %q; want %q", c.in, got, c.block)
		}
	}
}

func FuzzLine(f *testing.F) {
	f.Add("Email\x1b[2J")
	f.Add("\u202e\xff\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Line(s), Block(s)} {
			for _, r := range out {
				if r != '\n' && r != '\t' && (unicode.IsControl(r) || unsafe(r)) {
					t.Fatalf("%q printed %q, which holds the control %U", s, out, r)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line(%q) kept a newline or tab", s)
		}
	})
}
