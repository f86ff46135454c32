package arch

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestLayers holds the picture on the tree as each OS builds it: the
// darwin and windows files import what the linux ones do not, and
// internal/wine's programs build for windows only.
func TestLayers(t *testing.T) {
	var trees []Tree
	for _, goos := range []string{"linux", "darwin", "windows"} {
		tree, err := LoadTree("../..", goos)
		if err != nil {
			t.Fatal(err)
		}
		if len(tree.Code) < 40 {
			t.Fatalf("%s: go list found %d packages; want the whole module", goos, len(tree.Code))
		}
		for _, v := range breaks(Reprise, tree) {
			t.Errorf("%s: %s", goos, v)
		}
		trees = append(trees, tree)
	}
	for _, v := range Reprise.Lint(trees...) {
		t.Error(v)
	}
}

// breaks is every break of p and of Rules in tree.
func breaks(p Picture, tree Tree) []string {
	return append(p.Check(tree), Check(tree.Code, Rules)...)
}

var linux = sync.OnceValues(func() (Tree, error) { return LoadTree("../..", "linux") })

// edge is an import added to the real graph: by a package's code, or by
// its tests.
type edge struct {
	from, to string
	test     bool
}

// with is the linux tree with edges added, on a copy.
func with(t *testing.T, edges ...edge) Tree {
	t.Helper()
	tree, err := linux()
	if err != nil {
		t.Fatal(err)
	}
	if v := breaks(Reprise, tree); len(v) != 0 {
		t.Fatalf("the tree breaks the picture already: %v", v)
	}
	bad := Tree{Code: maps.Clone(tree.Code), Tests: maps.Clone(tree.Tests)}
	for _, e := range edges {
		g := bad.Code
		if e.test {
			g = bad.Tests
		}
		g[full(e.from)] = append(slices.Clone(g[full(e.from)]), full(e.to))
		if _, ok := bad.Code[full(e.to)]; !ok && strings.HasPrefix(full(e.to), Module) {
			bad.Code[full(e.to)] = nil // a package new to the tree
		}
	}
	return bad
}

func full(pkg string) string {
	if strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
		return pkg
	}
	return Module + "/" + pkg
}

// TestCheckNamesABadImport: the picture fails on an import added against
// it, and names it; Check still follows a deny rule through a chain.
func TestCheckNamesABadImport(t *testing.T) {
	for _, tc := range []struct {
		edges []edge
		want  string
	}{
		{[]edge{{"events", "embedded", false}}, "events imports embedded (layer server)"},
		{[]edge{{"skills", "recorder", false}}, "skills imports recorder (layer services)"},
		{[]edge{{"skills", "internal/progress", false}, {"internal/progress", "capture", false}}, "internal/progress imports capture (layer sources)"},
		{[]edge{{"capture/x11", "store", false}}, "capture/x11 imports store (layer domain)"},
		{[]edge{{"recorder", "github.com/nats-io/nats-server/v2/server", false}}, "recorder depends on github.com/nats-io/nats-server/v2/server"},
		{[]edge{{"skillbook", "recorder", false}}, "skillbook imports recorder (layer services)"},
		{[]edge{{"replay/desktop", "capture/frames", false}}, "replay/desktop imports capture/frames (layer sources)"},
		{[]edge{{"platform/ax/atspi", "capture", false}}, "platform/ax/atspi imports capture (layer sources)"},
		{[]edge{{"platform/input", "internal/progress", false}}, "platform/input imports internal/progress (layer leaves)"},
		{[]edge{{"client", "daemon", false}}, "client imports daemon (layer daemon)"},
		{[]edge{{"skillbook", "embedded", false}}, "skillbook imports embedded (layer server)"},
	} {
		if v := breaks(Reprise, with(t, tc.edges...)); !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
			t.Errorf("with %v added: %v; want %q", tc.edges, v, tc.want)
		}
	}

	bad := with(t, edge{"skills", "internal/progress", false}, edge{"internal/progress", "capture", false})
	rule := Rule{From: []string{"skills"}, Deny: []string{"capture/..."}, Why: "a skill knows nothing of how it was recorded"}
	want := "skills depends on capture (skills -> internal/progress -> capture)"
	if v := Check(bad.Code, []Rule{rule}); len(v) != 1 || !strings.HasPrefix(v[0], want) {
		t.Errorf("Check(skills -> internal/progress -> capture) = %v; want %q", v, want)
	}
}
