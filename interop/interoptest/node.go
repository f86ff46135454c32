package interoptest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Node is what the round trips run exported scripts with: node, the
// modules scripts/deps installs under .tools/node, and a Chromium.
type Node struct {
	Bin, Modules, Chrome string
}

// NeedNode finds node and module under the module root's .tools/node, for
// scripts that drive the Chromium at chrome, or skips naming what is
// missing: scripts/deps installs them all.
func NeedNode(t testing.TB, module, chrome string) Node {
	t.Helper()
	bin, err := exec.LookPath("node")
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
	return Node{Bin: bin, Modules: modules, Chrome: chrome}
}

// Run runs node with args in dir, the modules on NODE_PATH, and fails the
// test with its output when it fails.
func (n Node) Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := n.RunErr(t, dir, args...)
	if err != nil {
		t.Fatalf("node %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// RunErr is Run for a script that may rightly fail: it returns the
// script's output and how it exited.
func (n Node) RunErr(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, n.Bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_PATH="+n.Modules, "CHROME_PATH="+n.Chrome, "REPRISE_ROWS=",
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

// PlaywrightTest runs the @playwright/test specs in dir with one worker
// and no retries, as a person runs an exported spec.
func (n Node) PlaywrightTest(t testing.TB, dir string) (string, error) {
	t.Helper()
	config := filepath.Join(dir, "playwright.config.js")
	if err := os.WriteFile(config, PlaywrightConfig(), 0o600); err != nil {
		t.Fatal(err)
	}
	return n.RunErr(t, dir, filepath.Join(n.Modules, "@playwright", "test", "cli.js"), "test", "--config", config)
}

// PlaywrightConfig runs the specs next to it in one worker, headless.
// Playwright's own default is no sandbox; reprise keeps it on unless it
// runs as root, where Chromium cannot start with it. A row may take two
// minutes: make test runs three packages' Chromiums at once, and there
// Playwright's 30 s default once ran out on a visible field's fill.
func PlaywrightConfig() []byte { return fmt.Appendf(nil, playwrightConfig, os.Geteuid() != 0) }

const playwrightConfig = `module.exports = {
  testDir: __dirname,
  outputDir: __dirname + "/test-results",
  workers: 1,
  retries: 0,
  reporter: "line",
  timeout: 120000,
  globalTimeout: 270000,
  use: { headless: true, chromiumSandbox: %t },
};
`

// puppeteerChrome is the browser @puppeteer/replay's command line starts:
// the Chromium, through a script that turns its sandbox off as root,
// where it cannot start (the command line passes no switches).
func (n Node) puppeteerChrome(t testing.TB) string {
	t.Helper()
	if os.Geteuid() != 0 {
		return n.Chrome
	}
	path := filepath.Join(t.TempDir(), "chromium-no-sandbox")
	script := "#!/bin/sh\nexec " + shellQuote(n.Chrome) + " --no-sandbox \"$@\"\n"
	if err := os.WriteFile(path, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
