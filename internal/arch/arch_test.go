package arch

import (
	"slices"
	"strings"
	"testing"
)

// TestLayers holds the rules on the tree as each OS builds it: the
// darwin and windows files import what the linux ones do not.
func TestLayers(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		g, err := Load("../..", goos)
		if err != nil {
			t.Fatal(err)
		}
		if len(g) < 40 {
			t.Fatalf("%s: go list found %d packages; want the whole module", goos, len(g))
		}
		for _, r := range Rules {
			for _, p := range r.From {
				if !slices.ContainsFunc(sortedKeys(g), func(pkg string) bool { return match(pkg, p) }) {
					t.Errorf("rule %q names %s, which is no package: the rule checks nothing", r.Why, p)
				}
			}
		}
		for _, v := range Check(g, Rules) {
			t.Errorf("%s: %s", goos, v)
		}
	}
}

// TestCheckNamesABadImport: the rules fail on an import added against
// them, direct or through another package, and name it.
func TestCheckNamesABadImport(t *testing.T) {
	g, err := Load("../..", "linux")
	if err != nil {
		t.Fatal(err)
	}
	if v := Check(g, Rules); len(v) != 0 {
		t.Fatalf("the tree breaks the rules already: %v", v)
	}
	const m = Module + "/"
	for _, tc := range []struct {
		edges [][2]string // imports added to the real graph
		want  string
	}{
		{[][2]string{{m + "events", m + "embedded"}}, "events depends on embedded (events -> embedded)"},
		{[][2]string{{m + "skills", m + "recorder"}}, "skills depends on recorder (skills -> recorder)"},
		{[][2]string{{m + "skills", m + "internal/progress"}, {m + "internal/progress", m + "capture"}},
			"skills depends on capture (skills -> internal/progress -> capture)"},
		{[][2]string{{m + "capture/x11", m + "store"}}, "capture/x11 depends on store (capture/x11 -> store)"},
		{[][2]string{{m + "recorder", "github.com/nats-io/nats-server/v2/server"}}, "recorder depends on github.com/nats-io/nats-server/v2/server"},
		{[][2]string{{m + "skillbook", m + "recorder"}}, "skillbook depends on recorder (skillbook -> recorder)"},
		{[][2]string{{m + "replay/desktop", m + "capture/frames"}}, "replay/desktop depends on capture/frames (replay/desktop -> capture/frames)"},
		{[][2]string{{m + "platform/ax/atspi", m + "capture"}}, "platform/ax/atspi depends on capture (platform/ax/atspi -> capture)"},
		{[][2]string{{m + "platform/input", m + "internal/progress"}}, "platform/input depends on internal/progress (platform/input -> internal/progress)"},
		{[][2]string{{m + "client", m + "daemon"}}, "client depends on daemon (client -> daemon)"},
		{[][2]string{{m + "client", m + "skillbook"}, {m + "skillbook", m + "embedded"}}, "client depends on embedded (client -> skillbook -> embedded)"},
	} {
		bad := Graph{}
		for k, v := range g {
			bad[k] = slices.Clone(v)
		}
		for _, e := range tc.edges {
			bad[e[0]] = append(bad[e[0]], e[1])
		}
		v := Check(bad, Rules)
		if !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
			t.Errorf("with %v added: %v; want %q", tc.edges, v, tc.want)
		}
	}
}
