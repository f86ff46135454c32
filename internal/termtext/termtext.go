// Package termtext makes text from recordings, pages and files safe to print
// on a terminal. A label, a value or a page's message can hold escape
// sequences (ESC [ ... moves the cursor, rewrites the title, hides what
// follows) or bidi overrides that reorder what the person reads: printed
// raw, an imported recording could make `recordings show` say what it does
// not hold. Each such character is printed as an escape instead. It also
// reads what the person types there, without echo (Typed).
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line is s for one line of output: every control character, newlines
// and tabs too, is escaped, so s cannot start a line or a column of its own.
func Line(s string) string { return clean(s, false) }

// Block is s for several lines of output (a skill's YAML, a message that
// is meant to wrap): newlines and tabs stay, every other control is escaped.
func Block(s string) string { return clean(s, true) }

func clean(s string, keepLines bool) string {
	if !needs(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case unsafe(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needs(s string, keepLines bool) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return true
			}
		}
		if unsafe(r) && !(keepLines && (r == '\n' || r == '\t')) {
			return true
		}
	}
	return false
}

// unsafe says whether r changes how a terminal shows what follows: the C0
// and C1 controls, DEL, and the bidi embeddings, overrides and isolates.
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
