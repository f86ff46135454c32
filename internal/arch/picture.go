package arch

import (
	"fmt"
	"slices"
	"strings"
)

// Below, in a layer's May, stands for every layer listed after it that is
// not test-only: what a layer that composes the others may import.
const Below = "(every layer below)"

// Layer is one level of the picture: its packages, what they may import,
// and why.
type Layer struct {
	Name string
	// Packages are patterns relative to Module ("capture/..." is capture
	// and every package under it). A package belongs to the layer whose
	// pattern names it most closely: "capture/capturetest" before
	// "capture/...".
	Packages []string
	// May names the layers (by Name) and the packages (by pattern) this
	// layer's packages may import. They import each other only if May names
	// the layer itself. Packages outside the module are free but for Rules.
	May []string
	// TestOnly layers hold test helpers: only tests and test-only layers
	// may import them.
	TestOnly bool
	Why      string
}

// Exception is one import the layers forbid that the picture allows
// anyway, and why.
type Exception struct{ From, To, Why string }

// Picture is reprise's layering: ordered layers, top to bottom, each
// importing only what it names, and below itself.
type Picture struct {
	Layers []Layer
	// TestsMay is what any package's tests may import besides what its
	// layer may: layer names or package patterns.
	TestsMay []string
	// EndToEnd names, with why, the packages whose tests are end-to-end
	// suites: they may import any package.
	EndToEnd map[string]string
	// Exceptions are imports allowed against the layers.
	Exceptions []Exception
	// Planned names, with why, patterns that may place no package yet.
	Planned map[string]string
}

// Check returns every break of the picture in t: a package in no layer (or
// in two), an import its layer may not make, a test import its layer and
// TestsMay do not allow, and code importing a test helper. Each names the
// package and the import.
func (p Picture) Check(t Tree) []string {
	var out []string
	for _, pkg := range sortedKeys(t.Code) {
		if _, err := p.layerOf(pkg); err != nil {
			out = append(out, err.Error())
		}
	}
	for _, pkg := range sortedKeys(t.Code) {
		for _, imp := range t.Code[pkg] {
			if v := p.edge(pkg, imp, false); v != "" {
				out = append(out, v)
			}
		}
	}
	for _, pkg := range sortedKeys(t.Tests) {
		if _, e2e := p.EndToEnd[rel(pkg)]; e2e {
			continue
		}
		for _, imp := range t.Tests[pkg] {
			if v := p.edge(pkg, imp, true); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// edge is why from may not import to, or "" if it may.
func (p Picture) edge(from, to string, test bool) string {
	if from == to || !strings.HasPrefix(to, Module+"/") {
		return ""
	}
	fl, err := p.layerOf(from)
	if err != nil {
		return "" // said once by Check
	}
	tl, err := p.layerOf(to)
	if err != nil {
		return ""
	}
	if slices.ContainsFunc(p.Exceptions, func(e Exception) bool { return match(from, e.From) && match(to, e.To) }) {
		return ""
	}
	if p.may(fl, p.Layers[fl].May, to) || test && p.may(fl, p.TestsMay, to) {
		return ""
	}
	f, tt := p.Layers[fl], p.Layers[tl]
	switch {
	case test:
		return fmt.Sprintf("%s's tests import %s (layer %s); tests of layer %s may import only %s, and %s (anything, in an EndToEnd suite)",
			rel(from), rel(to), tt.Name, f.Name, mayList(f.May), strings.Join(p.TestsMay, ", "))
	case tt.TestOnly && !f.TestOnly:
		return fmt.Sprintf("%s imports %s, a test helper (layer %s): only tests may import it", rel(from), rel(to), tt.Name)
	}
	return fmt.Sprintf("%s imports %s (layer %s); layer %s may import only %s: %s",
		rel(from), rel(to), tt.Name, f.Name, mayList(f.May), f.Why)
}

// may reports whether the layer at index at may import pkg by names.
func (p Picture) may(at int, names []string, pkg string) bool {
	in, err := p.layerOf(pkg)
	if err != nil {
		return false
	}
	for _, n := range names {
		switch {
		case n == Below:
			if in > at && !p.Layers[in].TestOnly {
				return true
			}
		case p.layer(n) >= 0:
			if p.layer(n) == in {
				return true
			}
		case match(pkg, n):
			return true
		}
	}
	return false
}

// layer is the index of the layer named name, or -1.
func (p Picture) layer(name string) int {
	return slices.IndexFunc(p.Layers, func(l Layer) bool { return l.Name == name })
}

// layerOf is the index of pkg's layer: the one whose pattern names it most
// closely, an exact name before a "/..." pattern, a longer one before a
// shorter.
func (p Picture) layerOf(pkg string) (int, error) {
	best, score, tie := -1, -1, -1
	for i, l := range p.Layers {
		for _, pat := range l.Packages {
			if !match(pkg, pat) {
				continue
			}
			s := 2*len(pat) + 1
			if strings.HasSuffix(pat, "/...") {
				s = 2 * len(strings.TrimSuffix(pat, "/..."))
			}
			switch {
			case s > score:
				best, score, tie = i, s, -1
			case s == score && i != best:
				tie = i
			}
		}
	}
	switch {
	case best < 0:
		return -1, fmt.Errorf("%s is in no layer: add it to the Packages of the layer it belongs to in internal/arch/layers.go", rel(pkg))
	case tie >= 0:
		return -1, fmt.Errorf("%s is in two layers, %s and %s, as closely: name it in one only (internal/arch/layers.go)", rel(pkg), p.Layers[best].Name, p.Layers[tie].Name)
	}
	return best, nil
}

// mayList lists a layer's May for a message.
func mayList(may []string) string {
	if len(may) == 0 {
		return "nothing of reprise"
	}
	return strings.Join(may, ", ")
}
