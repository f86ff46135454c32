package arch

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDeps = flag.Bool("update", false, "rewrite the golden dependency lists in testdata/deps")

// depTargets are the systems the CLI ships for (the Makefile's
// CROSS_TARGETS), built as it is built: without cgo.
var depTargets = []string{"linux/amd64", "darwin/arm64", "darwin/amd64", "windows/amd64"}

// goldenDeps are the packages whose links are held, and their files in
// testdata/deps. The CLI is one binary with the daemon, so its list is
// long; the client is what every CLI call loads, so its list stays short.
var goldenDeps = []struct{ pkg, file string }{
	{"cmd/reprise", "cmd-reprise.golden"},
	{"client", "client.golden"},
}

const depsHeader = `# What %s links, as go list -deps reports it for %s (CGO_ENABLED=0):
# reprise's own packages one by one, every other module by its path, the
# standard library left out. A line ending in [...] is linked on those
# systems only.
# Update: go test ./internal/arch -run TestDeps -update
`

// TestDeps holds what the CLI binary and the client link to the lists in
// testdata/deps, so that a new dependency, or a package dragged in through
// another (issue 34: the client linked the desktop broker, goja and dbus
// for a few structs), shows in review as a diff of those files.
func TestDeps(t *testing.T) {
	pkgs := make([]string, len(goldenDeps))
	for i, g := range goldenDeps {
		pkgs[i] = Module + "/" + g.pkg
	}
	deps, err := linkedOn("../..", depTargets, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldenDeps {
		got := depLines(Module+"/"+g.pkg, deps)
		if len(got) < 3 {
			t.Fatalf("%s links %d packages; want at least events, ops and nats.go", g.pkg, len(got))
		}
		text := fmt.Sprintf(depsHeader, g.pkg, strings.Join(depTargets, ", ")) + strings.Join(got, "\n") + "\n"
		path := filepath.Join("testdata", "deps", g.file)
		if *updateDeps {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read %s: %v; run `go test ./internal/arch -run TestDeps -update` to write it", path, err)
		}
		if diff := lineDiff(string(want), text); diff != "" {
			t.Errorf("%s no longer links what %s says (- gone, + new):\n%s\nIf that is meant, run `go test ./internal/arch -run TestDeps -update` and commit internal/arch/%s with the change.",
				g.pkg, path, diff, filepath.ToSlash(path))
		}
	}
}

// depsByTarget is, per target, each root package's dependencies named as
// depLines names them.
type depsByTarget map[string]map[string][]string

// linkedOn lists the dependencies of each of pkgs (import paths) for each
// target ("goos/goarch"), from the module at dir.
func linkedOn(dir string, targets, pkgs []string) (depsByTarget, error) {
	out := depsByTarget{}
	for _, target := range targets {
		goos, goarch, _ := strings.Cut(target, "/")
		cmd := exec.Command("go", append([]string{"list", "-deps", "-f",
			"{{.ImportPath}}\t{{.Standard}}\t{{with .Module}}{{.Path}}{{end}}\t{{join .Deps \" \"}}"}, pkgs...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps for %s: %w: %s", target, err, stderr.Bytes())
		}
		// name is how a package shows in the list: reprise's by import
		// path, another module's by the module's path, the standard
		// library not at all ("").
		name := map[string]string{}
		deps := map[string][]string{}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 4 {
				return nil, fmt.Errorf("go list -deps for %s: unexpected line %q", target, sc.Text())
			}
			switch {
			case f[1] == "true":
			case f[2] == Module || f[2] == "":
				name[f[0]] = f[0]
			default:
				name[f[0]] = f[2]
			}
			if slices.Contains(pkgs, f[0]) {
				deps[f[0]] = strings.Fields(f[3])
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
		out[target] = map[string][]string{}
		for _, p := range pkgs {
			if _, ok := deps[p]; !ok {
				return nil, fmt.Errorf("go list -deps for %s did not list %s", target, p)
			}
			var names []string
			for _, d := range deps[p] {
				if n := name[d]; n != "" {
					names = append(names, n)
				}
			}
			slices.Sort(names)
			out[target][p] = slices.Compact(names)
		}
	}
	return out, nil
}

// depLines is pkg's dependencies, sorted, one a line; a dependency that
// not every target links ends in the targets that do, as "[linux/amd64]".
func depLines(pkg string, l depsByTarget) []string {
	on := map[string][]string{}
	for _, target := range depTargets {
		for _, n := range l[target][pkg] {
			on[n] = append(on[n], target)
		}
	}
	lines := make([]string, 0, len(on))
	for n, targets := range on {
		if len(targets) == len(depTargets) {
			lines = append(lines, n)
			continue
		}
		lines = append(lines, n+" ["+strings.Join(targets, " ")+"]")
	}
	slices.Sort(lines)
	return lines
}

// lineDiff is the lines only want has ("- ") and those only got has
// ("+ "), in order; "" when the two hold the same lines.
func lineDiff(want, got string) string {
	w, g := strings.Split(strings.TrimSpace(want), "\n"), strings.Split(strings.TrimSpace(got), "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+ %s\n", l)
		}
	}
	return b.String()
}
