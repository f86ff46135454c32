// Package axpath is the accessibility path every desktop enricher writes
// into a step's ax_path (SPEC section 9), whatever the tree it reads
// (AT-SPI on Linux, AX on macOS, UI Automation or MSAA on Windows).
//
// A path runs from the top-level window down, one segment per element: the
// tree's own role name, then "[name]" when the element has a name, then
// "#n" when n-1 earlier siblings share its role and name, as in
// "dialog[New customer]/filler/text[First Name]". Indices of siblings of
// other roles do not appear, so a path survives a toolkit adding a
// decoration beside the element. '\', '/', '[', ']' and '#' in names are
// escaped with a backslash.
package axpath

import (
	"strconv"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// Node is one element on a path: its role in the tree's own vocabulary,
// its name, and its 1-based position among the siblings sharing both (0
// when it is the only one).
type Node struct {
	Role    string
	Name    string
	Ordinal int
}

// Format writes the path of nodes, window first.
func Format(nodes []Node) string {
	var b strings.Builder
	for i, n := range nodes {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(n.Role)
		if n.Name != "" {
			b.WriteByte('[')
			b.WriteString(escape(n.Name))
			b.WriteByte(']')
		}
		if n.Ordinal > 0 {
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(n.Ordinal))
		}
	}
	return b.String()
}

const special = `\/[]#`

func escape(s string) string {
	if !strings.ContainsAny(s, special) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LastRole returns the role of a path's last segment.
func LastRole(path string) string {
	start := 0
	for i := 0; i < len(path); i++ {
		switch path[i] {
		case '\\':
			i++ // the escaped byte is part of a name
		case '/':
			start = i + 1
		}
	}
	seg := path[start:]
	if i := strings.IndexAny(seg, "[#"); i >= 0 {
		seg = seg[:i]
	}
	return seg
}

// Ordinal is the 1-based position of siblings[at] among the siblings that
// share its role and name, or 0 when no other does.
func Ordinal(siblings []Node, at int) int {
	if at < 0 || at >= len(siblings) {
		return 0
	}
	me, n, same := siblings[at], 0, 0
	for i, s := range siblings {
		if s.Role == me.Role && s.Name == me.Name {
			same++
			if i <= at {
				n++
			}
		}
	}
	if same < 2 {
		return 0
	}
	return n
}

// Enrichment is a step's enrichment from an accessibility tree: the path
// of nodes (window first), the element's role in reprise's vocabulary, its
// label, and the tree's own id for it when there is one; nil for no nodes.
func Enrichment(nodes []Node, role, label, id string) *events.Enrichment {
	if len(nodes) == 0 {
		return nil
	}
	path := Format(nodes)
	sels := []events.Selector{}
	if id != "" {
		sels = append(sels, events.Selector{Strategy: events.StrategyID, Value: id})
	}
	return &events.Enrichment{Kind: events.KindAX, Selectors: sels, AXPath: &path, Role: role, Label: label}
}

// IsPassword reports whether e is a tree's enrichment of a password field,
// whose value must never leave the capture source (SPEC section 8): its
// path's last segment keeps the tree's own password role, which Role does
// not tell apart, so the answer survives the step being stored.
func IsPassword(e *events.Enrichment, passwordRole string) bool {
	return e != nil && e.Kind == events.KindAX && e.AXPath != nil && LastRole(*e.AXPath) == passwordRole
}

// Parse reads a path Format wrote back into its nodes. A segment it cannot
// read ends the path: what came before is still the element's ancestry.
func Parse(path string) []Node {
	var nodes []Node
	for len(path) > 0 {
		var n Node
		var b strings.Builder
		i := 0
		for ; i < len(path) && path[i] != '[' && path[i] != '#' && path[i] != '/'; i++ {
			b.WriteByte(path[i])
		}
		n.Role = b.String()
		if i < len(path) && path[i] == '[' {
			b.Reset()
			for i++; i < len(path) && path[i] != ']'; i++ {
				if path[i] == '\\' && i+1 < len(path) {
					i++
				}
				b.WriteByte(path[i])
			}
			if i >= len(path) {
				return nodes // an unclosed name
			}
			n.Name = b.String()
			i++
		}
		if i < len(path) && path[i] == '#' {
			j := i + 1
			for j < len(path) && path[j] >= '0' && path[j] <= '9' {
				j++
			}
			n.Ordinal, _ = strconv.Atoi(path[i+1 : j])
			i = j
		}
		if i < len(path) && path[i] != '/' {
			return nodes
		}
		nodes = append(nodes, n)
		if i >= len(path) {
			break
		}
		path = path[i+1:]
	}
	return nodes
}
