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
		edge added
		pic  func(Picture) Picture // the picture to check against, if not Reprise
		want string
	}{
		{added{"audit", "recorder", false}, nil, "audit imports recorder (layer services)"},
		{added{"audit", "capture/x11", false}, nil, "audit imports capture/x11 (layer sources)"},
		{added{"model", "replay/browser", false}, nil, "model imports replay/browser (layer executors)"},
		{added{"model", "daemon", false}, nil, "model imports daemon (layer daemon)"},
		{added{"replay/heal", "daemon", false}, nil, "replay/heal imports daemon (layer daemon)"},
		{added{"replay/heal", "client", false}, nil, "replay/heal imports client (layer client)"},
		{added{"replay/session", "client", false}, nil, "replay/session imports client (layer client)"},
		{added{"replay/hub", "replay/session", false}, nil, "replay/hub imports replay/session (layer session)"},
		{added{"replay", "replay/desktop", false}, nil, "replay imports replay/desktop (layer executors)"},
		{added{"ops", "skills", false}, nil, "ops imports skills (layer domain)"},
		{added{"events", "selector", false}, nil, "events imports selector (layer vocabulary)"},
		{added{"embedded", "store", false}, nil, "embedded imports store (layer domain)"},
		{added{"extension", "events", false}, nil, "extension imports events (layer vocabulary)"},
		{added{"client", "replay/browser", false}, nil, "client imports replay/browser (layer executors)"},
		{added{"client", "skillbook", false}, withoutExceptions, "client imports skillbook (layer services)"},
		{added{"client", "computer", false}, withoutExceptions, "client imports computer (layer services)"},
		{added{"client", "skills", false}, nil, "client imports skills (layer domain)"},
		{added{"api", "skillbook", false}, nil, "api imports skillbook (layer services)"},
		{added{"recorder", "internal/natstest", false}, nil, "recorder imports internal/natstest, a test helper"},
		{added{"daemon", "internal/paired", false}, nil, "daemon imports internal/paired, a test helper"},
		{added{"internal/natstest", "daemon", false}, nil, "internal/natstest imports daemon (layer daemon)"},
		{added{"replay/browser", "daemon", true}, nil, "replay/browser's tests import daemon (layer daemon)"},
		{added{"replay/browser", "internal/paired", true}, nil, "replay/browser's tests import internal/paired (layer e2e)"},
		{added{"skillbook", "recorder", true}, nil, "skillbook's tests import recorder (layer services)"},
		{added{"events", "embedded", true}, nil, ""}, // a test may start a server
		{added{"daemon", "newpkg", false}, nil, "newpkg is in no layer: add it"},
		{added{"daemon", "capture/scripted", false}, twice("capture/..."), "capture/scripted is in two layers"},
		{added{"cmd/reprise", "github.com/nats-io/nats-server/v2/server", false}, nil, "cmd/reprise depends on github.com/nats-io/nats-server/v2/server"},
	} {
		p := Reprise
		if tc.pic != nil {
			p = tc.pic(p)
		}
		v := allBreaks(p, withAdded(t, tc.edge))
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
	tree, err := linuxTree()
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
