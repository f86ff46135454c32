// Package arch holds the layering rules of reprise's packages and checks an
// import graph against them: which package may depend on which.
package arch

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Module is reprise's module path; rules name packages relative to it.
const Module = "github.com/reprise-dev/reprise"

// Graph is each package's direct imports (non-test), by import path.
type Graph map[string][]string

// Rule says that no package matching From may depend, directly or through
// others, on a package matching any of Deny, but for the direct imports in
// Allow. Patterns are import paths relative to Module ("capture/..." is
// capture and every package under it) or, for others, full paths.
type Rule struct {
	From []string
	Deny []string
	// Allow names, per From package (or pattern), denied packages it may
	// still import directly; the rule's Why says why.
	Allow map[string][]string
	// Direct checks direct imports only: who may import a package, not who
	// may be built on one that does.
	Direct bool
	Why    string
}

// Tree is the module's import graph as one OS builds it: each package's
// imports from its code, and from its tests (in-package and external _test
// files alike, the package itself left out).
type Tree struct {
	Code, Tests Graph
}

// Load lists reprise's packages for goos and their direct imports (non-test).
func Load(dir, goos string) (Graph, error) {
	t, err := LoadTree(dir, goos)
	return t.Code, err
}

// LoadTree lists reprise's packages for goos with their code's and their
// tests' direct imports.
func LoadTree(dir, goos string) (Tree, error) {
	cmd := exec.Command("go", "list", "-e", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=amd64", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return Tree{}, fmt.Errorf("go list for %s: %w: %s", goos, err, stderr.Bytes())
	}
	t := Tree{Code: Graph{}, Tests: Graph{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		pkg, rest, _ := strings.Cut(sc.Text(), "|")
		code, tests, _ := strings.Cut(rest, "|")
		if pkg == "" {
			continue
		}
		t.Code[pkg] = strings.Fields(code)
		t.Tests[pkg] = slices.DeleteFunc(strings.Fields(tests), func(imp string) bool { return imp == pkg })
		slices.Sort(t.Tests[pkg])
		t.Tests[pkg] = slices.Compact(t.Tests[pkg])
	}
	return t, sc.Err()
}

// Check returns every dependency g has that rules deny, each naming the
// package, the denied one and the chain of imports between them. The
// layers (Picture) are the main check; deny rules say what an allow-list
// of layers cannot, such as which package alone may import one from
// outside the module.
func Check(g Graph, rules []Rule) []string {
	var out []string
	for _, r := range rules {
		for _, pkg := range sortedKeys(g) {
			if !matchAny(pkg, r.From) || !strings.HasPrefix(pkg, Module) {
				continue
			}
			if chain := find(g, pkg, r); chain != nil {
				out = append(out, fmt.Sprintf("%s depends on %s (%s): %s", rel(pkg), rel(chain[len(chain)-1]), strings.Join(relAll(chain), " -> "), r.Why))
			}
		}
	}
	return out
}

// find is the shortest import chain from pkg to a package r denies, or nil.
func find(g Graph, pkg string, r Rule) []string {
	if r.Direct {
		for _, next := range g[pkg] {
			if matchAny(next, r.Deny) && !r.allows(pkg, next) {
				return []string{pkg, next}
			}
		}
		return nil
	}
	prev := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		at := queue[0]
		queue = queue[1:]
		for _, next := range g[at] {
			if _, seen := prev[next]; seen {
				continue
			}
			if at == pkg && r.allows(pkg, next) {
				continue
			}
			prev[next] = at
			if matchAny(next, r.Deny) {
				chain := []string{next}
				for p := at; p != ""; p = prev[p] {
					chain = append([]string{p}, chain...)
				}
				return chain
			}
			queue = append(queue, next)
		}
	}
	return nil
}

// allows reports whether r lets pkg import next directly.
func (r Rule) allows(pkg, next string) bool {
	for from, to := range r.Allow {
		if match(pkg, from) && matchAny(next, to) {
			return true
		}
	}
	return false
}

func matchAny(pkg string, patterns []string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match(pkg, p) })
}

// match reports whether pkg is the pattern's package, or under it for a
// pattern ending in "/..." ("..." alone is the whole module).
func match(pkg, pattern string) bool {
	full := pattern
	if pattern == "..." || !strings.Contains(strings.SplitN(pattern, "/", 2)[0], ".") {
		full = Module + "/" + pattern
	}
	if base, ok := strings.CutSuffix(full, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == full
}

func rel(pkg string) string { return strings.TrimPrefix(pkg, Module+"/") }

func relAll(pkgs []string) []string {
	out := make([]string, len(pkgs))
	for i, p := range pkgs {
		out[i] = rel(p)
	}
	return out
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
