package arch

import (
	"slices"
	"strings"
	"testing"
)

// TestEachRuleBites: each rule of the picture fails on an import added
// against it to the real graph, by code or by tests, and the failure names
// the import.
func TestEachRuleBites(t *testing.T) {
	for _, tc := range []struct {
		edge edge
		pic  func(Picture) Picture // the picture to check against, if not Reprise
		want string
	}{
		{edge{"audit", "recorder", false}, nil, "audit imports recorder (layer services)"},
		{edge{"audit", "capture/x11", false}, nil, "audit imports capture/x11 (layer sources)"},
		{edge{"model", "replay/browser", false}, nil, "model imports replay/browser (layer executors)"},
		{edge{"model", "daemon", false}, nil, "model imports daemon (layer daemon)"},
		{edge{"heal", "daemon", false}, nil, "heal imports daemon (layer daemon)"},
		{edge{"heal", "client", false}, nil, "heal imports client (layer client)"},
		{edge{"replay", "replay/desktop", false}, nil, "replay imports replay/desktop (layer executors)"},
		{edge{"ops", "skills", false}, nil, "ops imports skills (layer domain)"},
		{edge{"events", "selector", false}, nil, "events imports selector (layer vocabulary)"},
		{edge{"embedded", "store", false}, nil, "embedded imports store (layer domain)"},
		{edge{"extension", "events", false}, nil, "extension imports events (layer vocabulary)"},
		{edge{"client", "replay/browser", false}, nil, "client imports replay/browser (layer executors)"},
		{edge{"client", "skillbook", false}, withoutExceptions, "client imports skillbook (layer services)"},
		{edge{"client", "computer", false}, withoutExceptions, "client imports computer (layer services)"},
		{edge{"client", "skills", false}, nil, "client imports skills (layer domain)"},
		{edge{"api", "skillbook", false}, nil, "api imports skillbook (layer services)"},
		{edge{"recorder", "internal/natstest", false}, nil, "recorder imports internal/natstest, a test helper"},
		{edge{"daemon", "internal/paired", false}, nil, "daemon imports internal/paired, a test helper"},
		{edge{"internal/natstest", "daemon", false}, nil, "internal/natstest imports daemon (layer daemon)"},
		{edge{"replay/browser", "daemon", true}, nil, "replay/browser's tests import daemon (layer daemon)"},
		{edge{"replay/browser", "internal/paired", true}, nil, "replay/browser's tests import internal/paired (layer e2e)"},
		{edge{"skillbook", "recorder", true}, nil, "skillbook's tests import recorder (layer services)"},
		{edge{"events", "embedded", true}, nil, ""}, // a test may start a server
		{edge{"daemon", "newpkg", false}, nil, "newpkg is in no layer: add it"},
		{edge{"daemon", "capture/scripted", false}, twice("capture/..."), "capture/scripted is in two layers"},
		{edge{"cmd/reprise", "github.com/nats-io/nats-server/v2/server", false}, nil, "cmd/reprise depends on github.com/nats-io/nats-server/v2/server"},
	} {
		p := Reprise
		if tc.pic != nil {
			p = tc.pic(p)
		}
		v := breaks(p, with(t, tc.edge))
		if tc.want == "" {
			if len(v) != 0 {
				t.Errorf("with %v added: %v; want none", tc.edge, v)
			}
			continue
		}
		if !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
			t.Errorf("with %v added: %v; want %q", tc.edge, v, tc.want)
		}
	}
}

// withoutExceptions is p as it will be once the client takes its types
// from api: the exceptions are all the client's.
func withoutExceptions(p Picture) Picture {
	p.Exceptions = nil
	return p
}

// twice is p with pkg named by one more layer, as closely as by its own.
func twice(pkg string) func(Picture) Picture {
	return func(p Picture) Picture {
		p.Layers = slices.Clone(p.Layers)
		last := &p.Layers[len(p.Layers)-1]
		last.Packages = append(slices.Clone(last.Packages), pkg)
		return p
	}
}

// TestLintNamesWhatSaysNothing: a picture that names what is not there, or
// allows what no import needs, fails the lint and says what to remove.
func TestLintNamesWhatSaysNothing(t *testing.T) {
	tree, err := linux()
	if err != nil {
		t.Fatal(err)
	}
	layer := func(name string, change func(*Layer)) func(Picture) Picture {
		return func(p Picture) Picture {
			p.Layers = slices.Clone(p.Layers)
			change(&p.Layers[p.layer(name)])
			return p
		}
	}
	for _, tc := range []struct {
		pic  func(Picture) Picture
		want string
	}{
		{layer("domain", func(l *Layer) { l.Packages = append(slices.Clone(l.Packages), "gone") }), "layer domain names gone, which places no package"},
		{layer("platform", func(l *Layer) { l.May = append(slices.Clone(l.May), "domain") }), "layer platform may import domain, in layer domain above it"},
		{layer("domain", func(l *Layer) { l.May = append(slices.Clone(l.May), "testkit") }), "layer domain may import testkit, a test helper"},
		{func(p Picture) Picture {
			p.Exceptions = append(slices.Clone(p.Exceptions), Exception{"recorder", "selector", "no"})
			return p
		}, "exception recorder -> selector: no package imports it"},
		{func(p Picture) Picture {
			p.Exceptions = append(slices.Clone(p.Exceptions), Exception{"recorder", "capture", "no"})
			return p
		}, "exception recorder -> capture: the layers allow it anyway"},
		{func(p Picture) Picture {
			p.EndToEnd = map[string]string{"skills": "no"}
			return p
		}, "skills's tests obey its layer"},
	} {
		v := tc.pic(Reprise).Lint(tree)
		if !slices.ContainsFunc(v, func(s string) bool { return strings.HasPrefix(s, tc.want) }) {
			t.Errorf("Lint = %v; want %q", v, tc.want)
		}
	}
}
