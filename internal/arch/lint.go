package arch

import (
	"fmt"
	"slices"
)

// Lint returns what in the picture says nothing true of trees (the tree as
// each OS builds it): a pattern that places no package, a layer allowed to
// import above itself or a test helper, an exception no import needs, an
// end-to-end suite whose tests obey their layer anyway.
func (p Picture) Lint(trees ...Tree) []string {
	var out []string
	pkgs := map[string]bool{}
	for _, t := range trees {
		for pkg := range t.Code {
			pkgs[pkg] = true
		}
	}
	all := sortedKeys(pkgs)
	for _, l := range p.Layers {
		for _, pat := range l.Packages {
			if _, planned := p.Planned[pat]; !planned && !slices.ContainsFunc(all, func(pkg string) bool { return p.places(l.Name, pat, pkg) }) {
				out = append(out, fmt.Sprintf("layer %s names %s, which places no package: remove or fix it", l.Name, pat))
			}
		}
	}
	for at, l := range p.Layers {
		for _, n := range l.May {
			out = append(out, p.lintMay(at, n, all)...)
		}
	}
	for _, e := range p.Exceptions {
		out = append(out, p.lintException(e, trees)...)
	}
	for _, pkg := range sortedKeys(p.EndToEnd) {
		switch {
		case !pkgs[Module+"/"+pkg]:
			out = append(out, fmt.Sprintf("EndToEnd names %s, which is no package", pkg))
		case !p.breaksWithoutEndToEnd(Module+"/"+pkg, trees):
			out = append(out, fmt.Sprintf("%s's tests obey its layer: remove it from EndToEnd", pkg))
		}
	}
	return out
}

// breaksWithoutEndToEnd reports whether pkg's tests import what its layer
// does not allow, as EndToEnd lets them.
func (p Picture) breaksWithoutEndToEnd(pkg string, trees []Tree) bool {
	p.EndToEnd = nil
	return slices.ContainsFunc(trees, func(t Tree) bool {
		return slices.ContainsFunc(t.Tests[pkg], func(imp string) bool { return p.edge(pkg, imp, true) != "" })
	})
}

// places reports whether pattern pat of the named layer is what places pkg.
func (p Picture) places(layer, pat, pkg string) bool {
	in, err := p.layerOf(pkg)
	return err == nil && match(pkg, pat) && p.Layers[in].Name == layer
}

// lintMay checks that a layer's May entry n names only itself or layers
// below it, and no test helper unless the layer is one.
func (p Picture) lintMay(at int, n string, all []string) []string {
	l := p.Layers[at]
	if n == Below {
		return nil
	}
	var in []int
	if i := p.layer(n); i >= 0 {
		in = []int{i}
	} else {
		for _, pkg := range all {
			if i, err := p.layerOf(pkg); err == nil && match(pkg, n) {
				in = append(in, i)
			}
		}
		if _, planned := p.Planned[n]; len(in) == 0 && !planned {
			return []string{fmt.Sprintf("layer %s may import %s, which is no layer and no package", l.Name, n)}
		}
		slices.Sort(in)
		in = slices.Compact(in)
	}
	var out []string
	for _, i := range in {
		switch {
		case p.Layers[i].TestOnly && !l.TestOnly:
			out = append(out, fmt.Sprintf("layer %s may import %s, a test helper: only tests may", l.Name, n))
		case i < at:
			out = append(out, fmt.Sprintf("layer %s may import %s, in layer %s above it: move one of them", l.Name, n, p.Layers[i].Name))
		}
	}
	return out
}

// lintException checks that some import needs e, and only because the
// layers forbid it.
func (p Picture) lintException(e Exception, trees []Tree) []string {
	q := p
	q.Exceptions = nil
	used, needed := false, false
	for _, t := range trees {
		for i, g := range []Graph{t.Code, t.Tests} {
			for from, imps := range g {
				for _, to := range imps {
					if match(from, e.From) && match(to, e.To) {
						used = true
						needed = needed || q.edge(from, to, i == 1) != ""
					}
				}
			}
		}
	}
	switch {
	case !used:
		return []string{fmt.Sprintf("exception %s -> %s: no package imports it any more; remove it (and its mention in README.md)", e.From, e.To)}
	case !needed:
		return []string{fmt.Sprintf("exception %s -> %s: the layers allow it anyway; remove it", e.From, e.To)}
	}
	return nil
}
