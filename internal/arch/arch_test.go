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
		for _, v := range allBreaks(Reprise, tree) {
			t.Errorf("%s: %s", goos, v)
		}
		trees = append(trees, tree)
	}
	for _, v := range Reprise.Lint(trees...) {
		t.Error(v)
	}
}

// allBreaks is every break of p and of Rules in tree.
func allBreaks(p Picture, tree Tree) []string {
	return append(p.Check(tree), Check(tree.Code, Rules)...)
}

var linuxTree = sync.OnceValues(func() (Tree, error) { return LoadTree("../..", "linux") })

// added is an import added to the real graph: by a package's code, or by
// its tests.
type added struct {
	from, to string
	test     bool
}

// withAdded is the linux tree with edges added, on a copy.
func withAdded(t *testing.T, edges ...added) Tree {
	t.Helper()
	tree, err := linuxTree()
	if err != nil {
		t.Fatal(err)
	}
	if v := allBreaks(Reprise, tree); len(v) != 0 {
		t.Fatalf("the tree breaks the picture already: %v", v)
	}
	bad := Tree{Code: maps.Clone(tree.Code), Tests: maps.Clone(tree.Tests)}
	for _, e := range edges {
		g := bad.Code
		if e.test {
			g = bad.Tests
		}
		g[abs(e.from)] = append(slices.Clone(g[abs(e.from)]), abs(e.to))
		if _, ok := bad.Code[abs(e.to)]; !ok && strings.HasPrefix(abs(e.to), Module) {
			bad.Code[abs(e.to)] = nil // a package new to the tree
		}
	}
	return bad
}

// abs is pkg's full import path: a name without a domain is under Module.
func abs(pkg string) string {
	if strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
		return pkg
	}
	return Module + "/" + pkg
}

// TestCheckNamesABadImport: the picture fails on an import added against
// it, and names it; Check still follows a deny rule through a chain.
func TestCheckNamesABadImport(t *testing.T) {
	for _, tc := range []struct {
		edges []added
		want  string
	}{
		{[]added{{"events", "embedded", false}}, "events imports embedded (layer server)"},
		{[]added{{"skills", "recorder", false}}, "skills imports recorder (layer services)"},
		{[]added{{"skills", "internal/progress", false}, {"internal/progress", "capture", false}}, "internal/progress imports capture (layer sources)"},
		{[]added{{"capture/x11", "store", false}}, "capture/x11 imports store (layer domain)"},
		{[]added{{"recorder", "github.com/nats-io/nats-server/v2/server", false}}, "recorder depends on github.com/nats-io/nats-server/v2/server"},
		{[]added{{"skillbook", "recorder", false}}, "skillbook imports recorder (layer services)"},
		{[]added{{"replay/desktop", "capture/frames", false}}, "replay/desktop imports capture/frames (layer sources)"},
		{[]added{{"platform/ax/atspi", "capture", false}}, "platform/ax/atspi imports capture (layer sources)"},
		{[]added{{"platform/input", "internal/progress", false}}, "platform/input imports internal/progress (layer leaves)"},
		{[]added{{"client", "daemon", false}}, "client imports daemon (layer daemon)"},
		{[]added{{"skillbook", "embedded", false}}, "skillbook imports embedded (layer server)"},
	} {
		if v := allBreaks(Reprise, withAdded(t, tc.edges...)); !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
			t.Errorf("with %v added: %v; want %q", tc.edges, v, tc.want)
		}
	}

	bad := withAdded(t, added{"skills", "internal/progress", false}, added{"internal/progress", "capture", false})
	rule := Rule{From: []string{"skills"}, Deny: []string{"capture/..."}, Why: "a skill knows nothing of how it was recorded"}
	want := "skills depends on capture (skills -> internal/progress -> capture)"
	if v := Check(bad.Code, []Rule{rule}); len(v) != 1 || !strings.HasPrefix(v[0], want) {
		t.Errorf("Check(skills -> internal/progress -> capture) = %v; want %q", v, want)
	}
}
