package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestWindowsDaemonRecordsNotepadUnderWine runs reprise.exe for real under
// Wine on Xvfb: the daemon (its keys in Wine's Credential Manager) in a
// Wine virtual desktop records, through the Windows floor, a person
// (xdotool) typing a name into notepad; the CLI, another Windows process,
// starts and stops the recording and shows it.
func TestWindowsDaemonRecordsNotepadUnderWine(t *testing.T) {
	x := xvfb.Start(t)
	d := wine.NewDesktop(t, x.Display) // skips loudly when scripts/wine has not run
	exe := wine.Build(t, "./cmd/reprise")
	notepad := wine.Build(t, "./internal/wine/notepad")
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wine.KillWhere(dir) }) // the daemon and notepad outlive explorer
	winHome := wine.WinPath(home)
	cli := func(args ...string) (string, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		out := wine.LogFile(t)
		cmd := wine.Command(t, x.Display, wine.WinPath(exe), append([]string{"--home", winHome}, args...)...)
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			return "", err
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return wine.ReadLog(out), err
		case <-ctx.Done():
			_ = cmd.Process.Kill()
			<-done
			return wine.ReadLog(out), ctx.Err()
		}
	}

	logs := wine.LogFile(t)
	daemonCmd := d.Command(t, wine.WinPath(exe), "--home", winHome, "daemon", "--consent-prompt", "cli")
	daemonCmd.Stdout, daemonCmd.Stderr = logs, logs
	if err := daemonCmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = daemonCmd.Wait() }()
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		if out, err := cli("status"); err == nil && strings.Contains(out, "running") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("reprise.exe daemon not running under Wine after 90 s:\n%s", wine.ReadLog(logs))
		}
	}
	ready := filepath.Join(dir, "notepad-ready")
	d.Start(t, notepad, "-at", "100,80,600,400", "-ready", wine.WinPath(ready))
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("notepad was not in place after 30 s")
		}
	}

	out, err := cli("record", "start", "--yes", "--channels", "floor,desktop_ax")
	id := regexp.MustCompile(`rec_[0-9a-f-]+`).FindString(out)
	if err != nil || id == "" {
		t.Fatalf("record start: %v\n%s\ndaemon:\n%s", err, out, wine.ReadLog(logs))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	win, err := x.Window(ctx, d.Title())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"windowactivate", "--sync", win},
		{"mousemove", "--window", win, "300", "250"}, // notepad's text area
		{"click", "1"},
		{"sleep", "0.7"}, // past the double-click time
		{"type", "--delay", "30", "Grace Hopper"},
		{"key", "Tab"}, // commits the fill
		{"sleep", "0.5"},
	} {
		if _, err := x.Xdotool(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	if out, err = cli("record", "stop"); err != nil || !strings.Contains(out, "2 steps") {
		t.Fatalf("record stop: %v\n%s\ndaemon:\n%s", err, out, wine.ReadLog(logs))
	}
	t.Logf("record stop: %s", strings.TrimSpace(out))
	out, err = cli("recordings", "show", id)
	if err != nil {
		t.Fatalf("recordings show: %v\n%s", err, out)
	}
	t.Logf("recordings show:\n%s", out)
	fill := regexp.MustCompile(`(?m)^2\s+fill\s+ax\s+textbox\s+Grace Hopper\s+notepad\.exe\s*$`)
	click := regexp.MustCompile(`(?m)^1\s+click\s+ax\s+textbox\s+notepad\.exe\s*$`)
	if !click.MatchString(out) || !fill.MatchString(out) {
		t.Errorf("recording %s does not hold a click and a fill of notepad's text field through the Windows floor", id)
	}
}
