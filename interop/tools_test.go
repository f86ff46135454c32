package interop

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/skills"
)

// nodeTools are what the round trips run the exported scripts with: node,
// the modules scripts/deps installs under .tools/node, and Chromium.
type nodeTools struct {
	node, modules, chrome string
}

// needNode finds the tools, or skips naming what is missing: scripts/deps
// installs them all.
func needNode(t *testing.T, module string) nodeTools {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIP: node is not installed: run scripts/deps")
	}
	dir, _ := os.Getwd()
	for ; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above the package")
		}
	}
	modules := filepath.Join(dir, ".tools", "node", "node_modules")
	if _, err := os.Stat(filepath.Join(modules, module)); err != nil {
		t.Skipf("SKIP: %s is not installed under .tools/node: run scripts/deps", module)
	}
	chrome, err := chromium.Find()
	if err != nil {
		t.Skipf("SKIP: no Chromium: %v (scripts/deps installs it)", err)
	}
	return nodeTools{node: node, modules: modules, chrome: chrome}
}

// run runs node with args in dir, the modules on NODE_PATH, and fails the
// test with its output when it fails.
func (n nodeTools) run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := n.runErr(t, dir, args...)
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// runErr is run for a script that may rightly fail: it returns the
// script's output and how it exited.
func (n nodeTools) runErr(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, n.node, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+n.modules, "CHROME_PATH="+n.chrome, "REPRISE_ROWS=",
		"PUPPETEER_EXECUTABLE_PATH="+n.puppeteerChrome(t))
	// At the deadline the tool is interrupted and closes its browsers
	// itself (Playwright starts Chromium in a process group of its own, out
	// of reach of a group kill); 10 s later it is killed.
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// exportDir is a folder holding testdata/export/customers.csv and files.
func exportDir(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	csv, err := os.ReadFile(filepath.Join("testdata", "export", "customers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	files["customers.csv"] = csv
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exportSkill reads testdata/export/customer.yaml for the site at base.
func exportSkill(t *testing.T, base string) *skills.Skill {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "export", "customer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := skills.Parse([]byte(strings.ReplaceAll(string(b), "{{base}}", base)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exportRows are testdata/export/customers.csv as the site must hold them.
var exportRows = []map[string]string{
	{"first_name": "Ada", "email": "ada@example.test", "plan": "basic", "newsletter": "yes", "note": "Met at the fair, twice"},
	{"first_name": "Grace", "email": "grace@example.test", "plan": "ent", "newsletter": "", "note": ""},
	{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "note": "50% off"},
}

// puppeteerChrome is the browser @puppeteer/replay's command line starts:
// the system Chromium, through a script that turns its sandbox off as
// root, where it cannot start (the command line passes no switches).
func (n nodeTools) puppeteerChrome(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return n.chrome
	}
	path := filepath.Join(t.TempDir(), "chromium-no-sandbox")
	script := "#!/bin/sh\nexec " + shellQuote(n.chrome) + " --no-sandbox \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
