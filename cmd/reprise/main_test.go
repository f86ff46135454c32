package main

import (
	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/replay/browser"

	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// binary is the reprise command built once for the tests that run it as a
// child process, the way a person does.
var binary string

func TestMain(m *testing.M) {
	if os.Getenv(publisherEnv) != "" {
		os.Exit(runPublisher())
	}
	browser.SandboxOffAsRoot() // the daemon's and replay's browsers, as root in a container
	e2e.Main(m, &binary)
}

// run runs the reprise binary with home as its data dir.
func run(t *testing.T, home string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return runWithin(t, home, 2*time.Minute, args...)
}

// runWithin is run with a limit of its own, for a command that may rightly
// wait longer. run's limit bounds a hang, not speed: a busy make test has
// seen a short command take tens of seconds.
func runWithin(t *testing.T, home string, limit time.Duration, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = homeEnv(home)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// startDaemonProcess starts `reprise daemon` and waits until it answers.
func startDaemonProcess(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	return startDaemonProcessLogs(t, home, new(syncbuf.Buffer), args...)
}

// startDaemonProcessLogs is startDaemonProcess with the daemon's log kept in
// logs, which may be read while it runs.
func startDaemonProcessLogs(t *testing.T, home string, logs *syncbuf.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	return e2e.StartDaemonEnv(t, binary, home, desktopEnvs(home), logs, args...)
}

// desktops holds, by data dir, the environment of a test's own desktop
// (its DISPLAY and session bus) for every reprise process run on that
// dir, so that a test leaves this process's environment alone. The
// desktop tests still run one at a time, before the parallel ones: run
// beside the browser suites, the GTK apps answered the accessibility bus
// so late that recordings went wrong (see docs/testing.md).
var desktops sync.Map // home -> []string

// onDesktop gives every reprise process on home env as well.
func onDesktop(t *testing.T, home string, env []string) {
	desktops.Store(home, env)
	t.Cleanup(func() { desktops.Delete(home) })
}

func desktopEnvs(home string) []string {
	env, _ := desktops.Load(home)
	e, _ := env.([]string)
	return e
}

// homeEnv is the environment of a reprise process on home.
func homeEnv(home string) []string {
	return append(append(os.Environ(), desktopEnvs(home)...), daemon.HomeEnv+"="+home)
}

// privateDesktop is an Xvfb display with a session bus and an
// accessibility bus of its own, and the environment that points a
// process at them.
func privateDesktop(t *testing.T) (*xvfb.Desktop, []string) {
	t.Helper()
	bus := xvfb.SessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBusOn(t, bus)
	return d, append(d.Env(), bus...)
}

func TestHelpOnEveryCommand(t *testing.T) {
	t.Parallel()
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			if !sub.Hidden && sub.Name() != "help" && sub.Name() != "completion" {
				walk(sub, append(append([]string(nil), path...), sub.Name()))
			}
		}
	}
	walk(newRoot(), nil)
	if len(paths) < 4 {
		t.Fatalf("found %d commands; want at least root, daemon, status, doctor", len(paths))
	}
	for _, path := range paths {
		out, _, err := run(t, t.TempDir(), append(path, "--help")...)
		if err != nil || !strings.Contains(out, "Usage:") || !strings.Contains(out, "--home") {
			t.Errorf("reprise %s --help: err %v, output %q; want usage", strings.Join(path, " "), err, out)
		}
	}
}

func TestBadFlagsAndArgs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "customer-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(t.TempDir(), "skill.yaml")
	if err := os.WriteFile(skill, []byte(strings.ReplaceAll(string(tmpl), "{{base}}", "http://127.0.0.1:9")), 0o600); err != nil {
		t.Fatal(err)
	}
	badFlow := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(badFlow, []byte("{\"steps\": [\n  {\"type\": \"navigate\", \"url\": \"https://a.example/\"},\n  {\"type\": \"hover\", \"selectors\": [\"#menu\"]}\n]}"), 0o600); err != nil {
		t.Fatal(err)
	}
	badYAML := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(badYAML, []byte("version: 1\nname: [unclosed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hubKey := filepath.Join(t.TempDir(), "hub.key")
	if err := os.WriteFile(hubKey, bytes.Repeat([]byte{7}, 32), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args    []string
		mention string
	}{
		{[]string{"stop", "now"}, "unknown command"},
		{[]string{"computer", "revoke"}, "accepts 1 arg"},
		{[]string{"computer", "grant", "--budget", "many"}, "invalid argument"},
		{[]string{"computer", "targets", "--format", "xml"}, `--format "xml"`},
		{[]string{"skill", "import"}, "requires at least 1 arg"},
		{[]string{"skill", "import", filepath.Join(home, "missing.json")}, "no such file"},
		{[]string{"skill", "import", "/dev/zero"}, "/dev/zero is over"},
		{[]string{"skill", "import", badFlow}, "bad.json: line 3: steps[1].type: hover has no reprise equivalent"},
		{[]string{"skill", "import", skill, "--name", "x"}, "a skill file is a skill already"},
		{[]string{"skill", "import", skill, "--resolve"}, "--resolve reads the pages of imported flows"},
		{[]string{"skill", "import", skill, badFlow}, "bad.json is not a skill file (.yaml): import skill files and flows separately"},
		{[]string{"skill", "import", badYAML}, "bad.yaml: line 1: malformed YAML"},
		{[]string{"skill", "export", skill, "--revision", "2"}, "is a skill file"},
		{[]string{"skill", "export", badYAML}, "bad.yaml: line 1: malformed YAML"},
		{[]string{"skill", "export", "s", "--format", "docx"}, "--format must be one of chrome-recorder, puppeteer-replay, playwright, reprise"},
		{[]string{"skill", "export", "s", "--format", "playwright"}, "--format playwright needs --rows"},
		{[]string{"skill", "export", "s", "--format", "chrome-recorder", "--rows", "r.csv", "--row", "0"}, "--row counts data rows from 1"},
		{[]string{"status", "--format", "xml"}, `--format "xml"`},
		{[]string{"cache", "show", "s", "--format", "yaml"}, `--format "yaml"`},
		{[]string{"cache", "show"}, "accepts 1 arg"},
		{[]string{"cache", "show", "!!!"}, "gives no usable id"},
		{[]string{"cache", "clear", "s", "--step", "0"}, "--step counts from 1"},
		{[]string{"cache", "clear", "s", "--step", "x"}, "invalid argument"},
		{[]string{"skill", "show", "s", "--pending", "--revision", "2"}, "--pending and --revision together"},
		{[]string{"skill", "accept"}, "accepts 1 arg"},
		{[]string{"doctor", "--format", "yaml"}, `--format "yaml"`},
		{[]string{"daemon", "--log-level", "loud"}, `--log-level "loud"`},
		{[]string{"daemon", "extra"}, "unknown command"},
		{[]string{"status", "--nope"}, "unknown flag"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"browse"}, "accepts 1 arg"},
		{[]string{"browse", "--profile", "crm", "ftp://crm.example/"}, "URL must be an http:// or https:// address"},
		{[]string{"browse", "--profile", "crm", "javascript:alert(1)"}, "URL must be an http:// or https:// address"},
		{[]string{"browse", "https://crm.example/"}, "--profile is required"},
		{[]string{"browse", "--profile", "my crm", "https://crm.example/"}, `profile "my crm"`},
		{[]string{"worker", "--hub", "nats://127.0.0.1:1", "--profiles", "crm,my crm"}, `--profiles "my crm": a profile is a name`},
		{[]string{"worker", "--hub", "nats://127.0.0.1:1", "--profiles", "nowhere", "--hub-key", hubKey}, "--profiles nowhere: no such profile in the data dir"},
		{[]string{"status"}, "not running"},
		{[]string{"status", "--log-level", "verbose"}, `--log-level "verbose"`},
		{[]string{"skill", "validate", "/dev/zero"}, "/dev/zero is over"},
		{[]string{"skill", "validate", skill, "--rows", "/dev/zero"}, "the CSV is too big"},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--resume", "../../x"}, `--resume "../../x": not a run id`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--resume", "run_a.b"}, "not a run id"},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--report", "out.txt"}, ".csv or .json"},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--parallel", "0"}, `--parallel "0": want 1 to 16 rows at a time, or auto`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--parallel", "99"}, `--parallel "99": want 1 to 16`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--parallel", "two"}, `--parallel "two": want 1 to 16 rows at a time, or auto`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--parallel", "Auto"}, `--parallel "Auto"`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--parallel", "auto", "--yes", "--hub", "nats://127.0.0.1:1"}, "give --parallel, --show and --profile to `reprise worker`"},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--idle", "-1s"}, "--idle -1s: want 0"},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--idle", "soon"}, "invalid argument"},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--on-error", "maybe"}, `--on-error "maybe": want auto, stop or skip`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--on-error", ""}, `--on-error "": want auto, stop or skip`},
		{[]string{"replay", "s.yaml", "--rows", "r.csv", "--report", filepath.Join(home, "no", "such", "dir", "r.json")}, "cannot be written"},
	}
	for _, tc := range cases {
		_, stderr, err := run(t, home, tc.args...)
		if err == nil || !strings.Contains(stderr, tc.mention) {
			t.Errorf("reprise %s: err %v, stderr %q; want failure mentioning %q", strings.Join(tc.args, " "), err, stderr, tc.mention)
		}
	}
	os.WriteFile(filepath.Join(home, daemon.ConfigFile), []byte(`{"client_port": "x"}`), 0o600)
	if _, stderr, err := run(t, home, "daemon"); err == nil || !strings.Contains(stderr, "config.json") {
		t.Errorf("daemon with a malformed config.json: err %v, stderr %q; want an error naming the file", err, stderr)
	}
}

func TestDaemonStatusDoctor(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	d := startDaemonProcess(t, home)

	out, stderr, err := run(t, home, "status")
	if err != nil || !strings.Contains(out, fmt.Sprintf("pid %d", d.Process.Pid)) || !strings.Contains(out, "stream RECORDINGS") {
		t.Fatalf("status: %v\n%s%s", err, out, stderr)
	}
	out, _, err = run(t, home, "status", "--format", "json")
	if err != nil || !strings.Contains(out, `"machine_id": "m_`) {
		t.Fatalf("status --format json: %v\n%s", err, out)
	}
	out, _, err = run(t, home, "doctor")
	if err != nil || !strings.Contains(out, "daemon") || !strings.Contains(out, "replay: browser") {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	out, _, err = run(t, home, "doctor", "--format", "json")
	if err != nil || !strings.Contains(out, `"name": "keychain"`) || !strings.Contains(out, `"name": "ocr"`) {
		t.Fatalf("doctor --format json: %v\n%s", err, out)
	}

	// SIGTERM stops it cleanly: exit 0 and its credentials gone.
	d.Process.Signal(syscall.SIGTERM)
	if err := d.Wait(); err != nil {
		t.Fatalf("daemon exit after SIGTERM: %v", err)
	}
	if _, err := os.Stat(filepath.Join(home, api.ClientFile)); !os.IsNotExist(err) {
		t.Errorf("client file after SIGTERM: %v; want removed", err)
	}
	if _, stderr, err := run(t, home, "status"); err == nil || !strings.Contains(stderr, "not running") {
		t.Errorf("status after stop: %v %q; want not running", err, stderr)
	}
}
