package selector

import (
	"strings"

	"golang.org/x/text/width"
)

// Normalize is how names, labels, titles and looked-for text compare:
// full-width characters narrowed to half-width and whitespace collapsed, so
// a selector a person types matches what a form shows without reproducing
// its spelling.
func Normalize(s string) string {
	return strings.Join(strings.Fields(width.Fold.String(s)), " ")
}

// NormalizeLabel is Normalize without a label's trailing colon ("Name:" is
// "Name").
func NormalizeLabel(s string) string {
	return strings.TrimSpace(strings.TrimSuffix(Normalize(s), ":"))
}

// glob reports whether text matches pattern, both normalized, where "*" in the
// pattern stands for any run of characters; whole reports whether the
// whole text must match, else any part of it.
func glob(pattern, text string, whole bool) bool {
	parts := strings.Split(pattern, "*")
	if !whole {
		parts = append(append([]string{""}, parts...), "")
	}
	if len(parts) == 1 {
		return text == pattern
	}
	if !strings.HasPrefix(text, parts[0]) {
		return false
	}
	text = text[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(text, p)
		if i < 0 {
			return false
		}
		text = text[i+len(p):]
	}
	return strings.HasSuffix(text, last)
}

// Contains reports whether text contains pattern once both are normalized, "*" in the
// pattern standing for any run of characters: how a window title is
// matched.
func Contains(text, pattern string) bool { return glob(Normalize(pattern), Normalize(text), false) }
