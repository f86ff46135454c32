package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/ops"
)

// TestComputerGrantAndStop: the daemon lists a real X desktop's windows
// with the refused ones and why, issues the person's grant on the front
// window it may operate, and `reprise stop` revokes it.
func TestComputerGrantAndStop(t *testing.T) {
	d, env := privateDesktop(t)
	for _, title := range []string{"Notes", "Unlock Keyring"} {
		app := exec.Command("zenity", "--entry", "--title", title, "--text", title)
		app.Env = env
		if err := app.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = app.Process.Kill(); _ = app.Wait() })
		ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
		if _, err := d.Window(ctx, title); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	home := t.TempDir()
	onDesktop(t, home, env)
	startDaemonProcess(t, home)

	out, stderr, err := run(t, home, "computer", "targets")
	if err != nil {
		t.Fatalf("computer targets: %v\n%s", err, stderr)
	}
	if !regexpLine(out, `zenity\s+Notes\s+-`) || !regexpLine(out, `zenity\s+Unlock Keyring\s+COMPUTER_TARGET_DENY_LISTED: its title is on the deny list`) {
		t.Errorf("computer targets:\n%s", out)
	}
	if out, stderr, err = grantAsPerson(t, d, home, personAllows); err != nil || !strings.Contains(out, "desktop scope on zenity (Notes), a11y-only, 200 actions") {
		t.Fatalf("computer grant: %v\n%s%s", err, out, stderr)
	}
	if _, stderr, err = run(t, home, "computer", "grant"); err == nil || !strings.Contains(stderr, "COMPUTER_GRANT_ACTIVE") {
		t.Errorf("a second grant: %v\n%s", err, stderr)
	}
	if out, _, err = run(t, home, "computer", "status"); err != nil || !strings.Contains(out, "by user: desktop scope on zenity (Notes") {
		t.Errorf("computer status: %v\n%s", err, out)
	}
	if out, _, err = run(t, home, "stop"); err != nil || !strings.Contains(out, "stopped: grant grant_") || !strings.Contains(out, "revoked") {
		t.Errorf("stop: %v\n%s", err, out)
	}
	if out, _, err = run(t, home, "computer", "status"); err != nil || !strings.Contains(out, "no grant is active") {
		t.Errorf("after stop: %v\n%s", err, out)
	}
	// The person's own grant is not held back by their Stop.
	if out, stderr, err = grantAsPerson(t, d, home, personAllows, "--pixels", "--budget", "3"); err != nil || !strings.Contains(out, "a11y-and-pixels, 3 actions") {
		t.Errorf("a grant after stop: %v\n%s%s", err, out, stderr)
	}
	if _, stderr, err = run(t, home, "computer", "grant", "--idle", "soon"); err == nil || !strings.Contains(stderr, "not a positive duration") {
		t.Errorf("a malformed idle expiry: %v\n%s", err, stderr)
	}
}

// regexpLine says some line of out matches pattern.
func regexpLine(out, pattern string) bool {
	re := regexp.MustCompile(pattern)
	for _, l := range strings.Split(out, "\n") {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// TestComputerRunThroughTheDaemon: `reprise computer run` and the
// COMPUTER_RUN wire op share the daemon's runtime over the grant: both
// refused without one; with the person's grant a script reads the window,
// takes a screenshot and sets a field; a read-only run throws on input.
func TestComputerRunThroughTheDaemon(t *testing.T) {
	d, home := notesDesktop(t)
	// A cap on the daemon's answers over the whole test, not a time it
	// must keep: under make test's load its steps took 35 s in all.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	c, err := client.Dial(home)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	dir := t.TempDir()
	file := func(name, code string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(code), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	var refused *ops.Error
	if _, err := c.ComputerRun(ctx, ops.ComputerRunRequest{Code: "desktop.windows()"}); !errors.As(err, &refused) || refused.Code != "COMPUTER_NO_GRANT" {
		t.Fatalf("COMPUTER_RUN without a grant: %v; want COMPUTER_NO_GRANT", err)
	}
	list := file("list.js", "desktop.windows()")
	if _, stderr, err := run(t, home, "computer", "run", list); err == nil || !strings.Contains(stderr, "COMPUTER_NO_GRANT") {
		t.Fatalf("computer run without a grant: %v\n%s", err, stderr)
	}
	if _, stderr, err := grantAsPerson(t, d, home, personAllows, "--pixels"); err != nil {
		t.Fatalf("grant: %v\n%s", err, stderr)
	}
	fill := file("fill.js", `const w = desktop.window({title: "Notes"});
print(w.title, w.app);
w.screenshot();
const box = await wait(() => w.find({role: "textbox"})[0], {timeout: 20000});
box.setValue("hello");
globalThis.mark = 42;
return box.value();`)
	out, stderr, err := run(t, home, "computer", "run", fill)
	if err != nil || !strings.Contains(out, "Notes zenity\n") || !regexpLine(out, `^screenshot of 0x[0-9a-f]+: .+\.png \(\d+x\d+\)$`) || !strings.HasSuffix(out, "hello\n") {
		t.Fatalf("computer run: %v\n%s%s", err, out, stderr)
	}
	ro := exec.Command(binary, "computer", "run", "--read-only", "-")
	ro.Env = homeEnv(home)
	ro.Stdin = strings.NewReader(`desktop.type("x")`)
	if b, err := ro.CombinedOutput(); err == nil || !strings.Contains(string(b), "PermissionDenied") || !strings.Contains(string(b), "read-only") {
		t.Fatalf("a read-only run that types: %v\n%s", err, b)
	}
	// The wire op runs in the same runtime, through the same grant.
	res, err := c.ComputerRun(ctx, ops.ComputerRunRequest{Code: `return [mark, desktop.window({title: "Notes"}).find({role: "textbox"})[0].value()]`, TimeoutSeconds: 30})
	if err != nil || res.Error != nil || res.Return != `[42,"hello"]` {
		t.Fatalf("COMPUTER_RUN: %+v, %v", res, err)
	}
	res, err = c.ComputerRun(ctx, ops.ComputerRunRequest{Code: `desktop.click(5, 5)`})
	if err != nil || res.Error == nil || res.Error.Code != "InvalidCoordinateFrame" {
		t.Fatalf("COMPUTER_RUN clicking with no desktop screenshot: %+v, %v; want InvalidCoordinateFrame", res, err)
	}
	if _, err := c.ComputerRun(ctx, ops.ComputerRunRequest{Code: "1", TimeoutSeconds: 301}); !errors.As(err, &refused) || refused.Code != ops.CodeInvalidRequest {
		t.Fatalf("COMPUTER_RUN with a timeout over 300 s: %v", err)
	}
	if _, stderr, err := run(t, home, "computer", "run", "--timeout", "0s", list); err == nil || !strings.Contains(stderr, "--timeout") {
		t.Fatalf("a zero timeout: %v\n%s", err, stderr)
	}
	if _, stderr, err := run(t, home, "computer", "run", filepath.Join(dir, "missing.js")); err == nil || !strings.Contains(stderr, "read the script") {
		t.Fatalf("a missing script: %v\n%s", err, stderr)
	}
}

// The person's answers to the daemon's confirmation dialog, as keys: its
// default button is "Don't allow".
var (
	personAllows = []string{"Tab", "Return"}
	personDenies = []string{"Return"}
)

// confirmTitle is the daemon's confirmation dialog for a person's grant.
const confirmTitle = "Let reprise act on your desktop?"

// grantAsPerson runs `reprise computer grant args...` while a person
// (xdotool) answers the daemon's confirmation dialog with keys.
func grantAsPerson(t *testing.T, d *xvfb.Desktop, home string, keys []string, args ...string) (string, string, error) {
	t.Helper()
	answered := make(chan error, 1)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	go func() { answered <- answerDialog(ctx, d, confirmTitle, keys) }()
	out, stderr, err := run(t, home, append([]string{"computer", "grant"}, args...)...)
	if aerr := <-answered; aerr != nil {
		t.Errorf("the person could not answer the confirmation: %v", aerr)
	}
	return out, stderr, err
}

// answerDialog waits for the dialog called title, brings it to the front
// and presses keys in it, as a person would.
func answerDialog(ctx context.Context, d *xvfb.Desktop, title string, keys []string) error {
	w, err := d.Window(ctx, title)
	if err != nil {
		return err
	}
	if _, err := d.Xdotool(ctx, "windowactivate", "--sync", w); err != nil {
		return err
	}
	_, err = d.Xdotool(ctx, append([]string{"key", "--clearmodifiers"}, keys...)...)
	return err
}

// TestOnlyThePersonGrants: a program holding the CLI's credentials asks
// for a grant as the person's, directly on the wire, and for one right
// after the person's Stop (issue 32). Neither is issued without the
// person's yes in the daemon's dialog; nothing it can answer over NATS
// stands in for it; each refusal is audited; and the Stop's cooldown still
// holds programs back.
func TestOnlyThePersonGrants(t *testing.T) {
	d, home := notesDesktop(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	hostile, err := client.Dial(home) // the CLI's own credentials
	if err != nil {
		t.Fatal(err)
	}
	defer hostile.Close()

	// grantHostile asks on the wire while the person denies the dialog;
	// meanwhile the program tries every answer it can reach.
	grantHostile := func(step string) {
		t.Helper()
		done := make(chan error, 1)
		go func() { _, err := hostile.Grant(ctx, api.CreateGrantRequest{}); done <- err }()
		w, err := d.Window(ctx, confirmTitle)
		if err != nil {
			t.Fatalf("%s: no confirmation dialog: %v", step, err)
		}
		prompts, err := client.NewConsent(hostile.Conn()).List(ctx)
		if err != nil || len(prompts) != 0 {
			t.Errorf("%s: a program with the CLI's credentials sees prompts it could answer: %v, %v", step, prompts, err)
		}
		select {
		case err := <-done:
			t.Fatalf("%s: the grant was answered before the person: %v", step, err)
		default:
		}
		if _, err := d.Xdotool(ctx, "windowactivate", "--sync", w); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Xdotool(ctx, append([]string{"key", "--clearmodifiers"}, personDenies...)...); err != nil {
			t.Fatal(err)
		}
		var refused *ops.Error
		if err := <-done; !errors.As(err, &refused) || refused.Code != ops.CodeComputerGrantNotConfirmed {
			t.Errorf("%s: a grant the person denied: %v; want %s", step, err, ops.CodeComputerGrantNotConfirmed)
		}
		if g, err := hostile.ActiveGrant(ctx); err != nil || g.Active {
			t.Errorf("%s: a grant is active after the person denied it: %+v, %v", step, g, err)
		}
	}
	grantHostile("a grant as the person's")

	// Stop, then the program tries to clear the cooldown with a
	// person's grant: denied, and a program's grant is still held back.
	if _, _, err := run(t, home, "stop"); err != nil {
		t.Fatal(err)
	}
	grantHostile("a grant right after Stop")
	var refused *ops.Error
	if _, err := hostile.HoldGrant(ctx, api.HoldRequest{}); !errors.As(err, &refused) || refused.Code != ops.CodeComputerStoppedByUser {
		t.Errorf("a program's grant after Stop and a denied confirmation: %v; want %s", err, ops.CodeComputerStoppedByUser)
	}

	out, _, err := run(t, home, "audit", "tail", "-n", "50")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "computer.grant.not_confirmed"); n != 2 {
		t.Errorf("the audit holds %d refused confirmations; want 2:\n%s", n, out)
	}
	if strings.Contains(out, "computer.grant.created") {
		t.Errorf("the audit says a grant was created:\n%s", out)
	}
	// The person's own yes issues it, and the audit says how they said it.
	if _, stderr, err := grantAsPerson(t, d, home, personAllows); err != nil {
		t.Fatalf("the person's grant: %v\n%s", err, stderr)
	}
	if out, _, _ := run(t, home, "audit", "tail", "-n", "5"); !regexpLine(out, `computer\.grant\.created.*confirmed_by=zenity`) {
		t.Errorf("the person's grant is not audited as confirmed in the dialog:\n%s", out)
	}
}

// notesDesktop is an X desktop whose one app is a zenity window "Notes" on
// the accessibility bus, and a daemon on a fresh home run on it.
func notesDesktop(t *testing.T) (*xvfb.Desktop, string) {
	t.Helper()
	d, env := privateDesktop(t)
	app := exec.Command("zenity", "--entry", "--title", "Notes", "--text", "Note")
	app.Env = env
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = app.Process.Kill(); _ = app.Wait() })
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if _, err := d.Window(ctx, "Notes"); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	onDesktop(t, home, env)
	startDaemonProcess(t, home)
	return d, home
}
