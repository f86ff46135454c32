package winhook_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestHooksUnderWine runs the hooks for real: cmd hookprobe records under
// Wine, in a Wine virtual desktop on Xvfb (so every click lands on a Wine
// window) holding notepad, while xdotool plays the person. The probe
// ignores injected input, as a recording does: Wine 8 does not flag input
// from the X server (xdotool's XTEST included) as injected, only
// SendInput's.
func TestHooksUnderWine(t *testing.T) {
	began := time.Now()
	x11 := xvfb.Start(t)
	d := wine.NewDesktop(t, x11.Display) // skips loudly when scripts/wine has not run
	exe := wine.Build(t, "./internal/wine/hookprobe")
	dir := t.TempDir()
	out, stop := filepath.Join(dir, "steps.jsonl"), filepath.Join(dir, "stop")
	cmd := d.Command(t, wine.WinPath(exe), "-notepad", "-out", wine.WinPath(out), "-stop", wine.WinPath(stop), "-for", "90s")
	logs := wine.LogFile(t)
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{}) // closed once the probe has exited
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = os.WriteFile(stop, nil, 0o600)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	read := func() string { b, _ := os.ReadFile(out); return string(b) }
	for deadline := time.Now().Add(60 * time.Second); !strings.HasPrefix(read(), "ready"); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			t.Fatalf("hookprobe under Wine exited before its hooks were ready: %v\n%s", waitErr, wine.ReadLog(logs))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("hookprobe's hooks were not ready in 60 s:\n%s", wine.ReadLog(logs))
		}
	}
	t.Logf("Wine virtual desktop, notepad and hooks ready after %v", time.Since(began).Round(time.Millisecond))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	win, err := x11.Window(ctx, d.Title())
	if err != nil {
		t.Fatal(err)
	}
	x := func(args ...string) {
		t.Helper()
		if _, err := x11.Xdotool(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	x("windowactivate", "--sync", win)
	// Notepad's window is at 100,80, 600 by 400: its text area holds 300,250.
	x("mousemove", "--window", win, "300", "250")
	time.Sleep(200 * time.Millisecond)
	x("click", "1")
	time.Sleep(600 * time.Millisecond) // past the double-click time
	x("type", "--delay", "30", "Hi there")
	x("key", "Return")
	x("key", "ctrl+a")
	// The desktop's background, outside notepad.
	x("mousemove", "--window", win, "900", "600")
	time.Sleep(200 * time.Millisecond)
	x("click", "3")
	time.Sleep(300 * time.Millisecond)

	if err := os.WriteFile(stop, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("hookprobe did not stop in 20 s")
	}
	var steps []events.Step
	var stats string
	sc := bufio.NewScanner(strings.NewReader(read()))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "ready":
		case strings.HasPrefix(line, `{"stats"`):
			stats = line
		default:
			var s events.Step
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatalf("step line %q: %v", line, err)
			}
			steps = append(steps, s)
		}
	}
	t.Logf("stats: %s; whole test %v", stats, time.Since(began).Round(time.Millisecond))
	var got []string
	for _, s := range steps {
		v := ""
		if s.Value != nil {
			v = s.Value.Raw
		}
		got = append(got, s.Action+" "+v)
		t.Logf("step %s %q at %v in %q/%q", s.Action, v, s.Cursor, s.ActiveApp, s.ActiveWindow)
	}
	want := []string{"click ", "fill Hi there", "submit ", "run ctrl+a", "click right"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("steps = %q; want %q (stats %s)", got, want, stats)
	}
	if c := steps[0].Cursor; len(c) != 2 || c[0] != 300 || c[1] != 250 {
		t.Errorf("first click at %v; want [300 250] in the Wine desktop", c)
	}
	for _, s := range steps[:4] {
		if s.ActiveApp != "notepad.exe" || !strings.Contains(s.ActiveWindow, "Notepad") {
			t.Errorf("%s step in %q/%q; want notepad.exe's window", s.Action, s.ActiveApp, s.ActiveWindow)
		}
	}
	if c := steps[4].Cursor; len(c) != 2 || c[0] != 900 || c[1] != 600 {
		t.Errorf("right click at %v; want [900 600]", c)
	}
	if steps[4].ActiveApp != "explorer.exe" {
		t.Errorf("right click on the desktop in %q; want explorer.exe, which draws Wine's desktop", steps[4].ActiveApp)
	}
	for _, s := range steps {
		if s.Actor != events.ActorHuman || s.Seq != 0 || s.TS == 0 {
			t.Errorf("step %+v: want actor human, seq 0 and a time", s)
		}
	}
}
