package heal

import (
	"errors"
	"regexp"
	"strings"

	"github.com/reprise-dev/reprise/selector"
)

// errUnpinnable is why an element a model chose cannot be found again: it
// has neither a name nor an id.
var errUnpinnable = errors.New("it has neither a name nor an id to find it by again")

// pin returns the plainest selector that names element i of t alone: role
// and name, or id, or both, or inside its nearest named container, or
// the nth of its kind, each checked against t.
func pin(t selector.Tree, i int) (selector.Selector, error) {
	el := t[i]
	name := strings.TrimSpace(el.Name)
	var tries []selector.Selector
	if name != "" {
		tries = append(tries, selector.Selector{Role: el.Role, Name: name})
	}
	if el.ID != "" {
		tries = append(tries, selector.Selector{Role: el.Role, ID: el.ID})
	}
	if name != "" {
		if box, ok := container(t, i); ok {
			tries = append(tries, selector.Selector{Role: el.Role, Name: name, In: &box})
		}
		for n := range 50 {
			tries = append(tries, selector.Selector{Role: el.Role, Name: name, Nth: &n})
		}
	}
	if len(tries) == 0 {
		return selector.Selector{}, errUnpinnable
	}
	for _, s := range tries {
		if got, err := selector.Match(s, t); err == nil && got == i {
			return s, nil
		}
	}
	return selector.Selector{}, errors.New("no selector names it alone")
}

// container is the selector of i's nearest named group-like ancestor that
// the tree has only one of.
func container(t selector.Tree, i int) (selector.Selector, bool) {
	for p, hops := t[i].Parent, 0; p >= 0 && p < len(t) && hops < 32; p, hops = t[p].Parent, hops+1 {
		el := t[p]
		if strings.TrimSpace(el.Name) == "" || el.Role == "text" || el.Role == "cell" || el.Role == "list_item" {
			continue
		}
		s := selector.Selector{Role: el.Role, Name: strings.TrimSpace(el.Name)}
		if got, err := selector.Match(s, t); err == nil && got == p {
			return s, true
		}
	}
	return selector.Selector{}, false
}

// keep is s as a skill or the cache keeps it: a row's values in its names
// written as their placeholders, so that it finds the element by each
// row's own value, and then without its id, which would find the element
// of the row it was made on; any other percent sign becomes a wildcard,
// since a skill reads "%" as a placeholder's. ok is false when nothing is
// left to find the element by.
func keep(s selector.Selector, m masker) (selector.Selector, bool) {
	name := m.mask(s.Name)
	if name != s.Name || m.mask(s.ID) != s.ID {
		s.ID = ""
	}
	s.Name = literalPercents(name)
	if s.In != nil {
		in, ok := keep(*s.In, m)
		if !ok {
			return s, false
		}
		s.In = &in
	}
	return s, s.Name != "" || s.ID != ""
}

// literalPercents turns every "%" that opens no placeholder into "*".
func literalPercents(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		s = s[i:]
		if loc := placeholderAt.FindStringIndex(s); loc != nil && loc[0] == 0 {
			b.WriteString(s[:loc[1]])
			s = s[loc[1]:]
			continue
		}
		b.WriteByte('*')
		s = s[1:]
	}
	return b.String()
}

var (
	placeholderAt  = regexp.MustCompile(`^%[a-z][a-z0-9]*(_[a-z0-9]+)*%`)
	placeholderAny = regexp.MustCompile(`%[a-z][a-z0-9]*(_[a-z0-9]+)*%`)
)
