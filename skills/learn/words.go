package learn

import (
	"fmt"
	"strings"

	"github.com/reprise-dev/reprise/skills"
)

// set makes a lookup of words.
func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// quoteShort quotes a person's answer or an enumerated word, cut short so a
// misplaced payload cannot ride along in an error.
func quoteShort(s string) string {
	const max = 24
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

func quoteList(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// labels are the options' labels, or their values where they have none.
func labels(opts []skills.Option) []string {
	out := make([]string, len(opts))
	for i, o := range opts {
		out[i] = o.Label
		if o.Label == "" {
			out[i] = o.Value
		}
	}
	return out
}
