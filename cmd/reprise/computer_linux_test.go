package main

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestComputerGrantAndStop: the daemon lists a real X desktop's windows
// with the refused ones and why, issues the person's grant on the front
// window it may operate, and `reprise stop` revokes it.
func TestComputerGrantAndStop(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	t.Setenv("DISPLAY", d.Display)
	for _, title := range []string{"Notes", "Unlock Keyring"} {
		app := exec.Command("zenity", "--entry", "--title", title, "--text", title)
		app.Env = d.Env()
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
	startDaemonProcess(t, home)

	out, stderr, err := run(t, home, "computer", "targets")
	if err != nil {
		t.Fatalf("computer targets: %v\n%s", err, stderr)
	}
	if !regexpLine(out, `zenity\s+Notes\s+-`) || !regexpLine(out, `zenity\s+Unlock Keyring\s+COMPUTER_TARGET_DENY_LISTED: its title is on the deny list`) {
		t.Errorf("computer targets:\n%s", out)
	}
	if out, stderr, err = run(t, home, "computer", "grant"); err != nil || !strings.Contains(out, "desktop scope on zenity (Notes), a11y-only, 200 actions") {
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
	if out, stderr, err = run(t, home, "computer", "grant", "--pixels", "--budget", "3"); err != nil || !strings.Contains(out, "a11y-and-pixels, 3 actions") {
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
