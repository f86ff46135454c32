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
// window), while xdotool plays the person. The probe ignores injected input,
// as a recording does: Wine 8 does not flag input from the X server
// (xdotool's XTEST included) as injected, only SendInput's.
//
// NOT YET PASSING: under this setup the probe's hooks install and report
// ready, but see no event (Stats.Events 0, Injected 0), and the test then
// hangs in cleanup. It runs only with REPRISE_WINE_HOOK_TEST=1 until that is
// understood.
func TestHooksUnderWine(t *testing.T) {
	if os.Getenv("REPRISE_WINE_HOOK_TEST") != "1" {
		t.Skip("SKIPPED: the Wine hook test is not reliable yet; set REPRISE_WINE_HOOK_TEST=1 to run it (after scripts/wine)")
	}
	wine.Runner(t) // skips loudly when scripts/wine has not run
	began := time.Now()
	d := xvfb.Start(t)
	exe := wine.Build(t, "./internal/wine/hookprobe")
	dir := t.TempDir()
	out, stop := filepath.Join(dir, "steps.jsonl"), filepath.Join(dir, "stop")
	cmd := wine.Command(t, d.Display, "explorer", "/desktop=reprisevd,1024x700",
		wine.WinPath(exe), "-out", wine.WinPath(out), "-stop", wine.WinPath(stop), "-for", "90s")
	var logs strings.Builder
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
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
		case err := <-exited:
			t.Fatalf("hookprobe under Wine exited before its hooks were ready: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("hookprobe's hooks were not ready in 60 s")
		}
	}
	t.Logf("Wine virtual desktop and hooks ready after %v", time.Since(began).Round(time.Millisecond))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	win, err := d.Window(ctx, "Wine desktop")
	if err != nil {
		t.Fatal(err)
	}
	x := func(args ...string) {
		t.Helper()
		if _, err := d.Xdotool(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	x("windowactivate", "--sync", win)
	x("mousemove", "--window", win, "200", "150")
	time.Sleep(200 * time.Millisecond)
	x("click", "1")
	time.Sleep(600 * time.Millisecond) // past the double-click time
	x("type", "--delay", "30", "Hi there")
	x("key", "Return")
	x("key", "ctrl+s")
	x("mousemove", "--window", win, "300", "250")
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
	want := []string{"click ", "fill Hi there", "submit ", "run ctrl+s", "click right"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("steps = %q; want %q (stats %s)", got, want, stats)
	}
	if c := steps[0].Cursor; len(c) != 2 || c[0] != 200 || c[1] != 150 {
		t.Errorf("first click at %v; want [200 150] in the Wine desktop", c)
	}
	if c := steps[4].Cursor; len(c) != 2 || c[0] != 300 || c[1] != 250 {
		t.Errorf("right click at %v; want [300 250]", c)
	}
	for _, s := range steps {
		if s.Actor != events.ActorHuman || s.Seq != 0 || s.TS == 0 {
			t.Errorf("step %+v: want actor human, seq 0 and a time", s)
		}
	}
}
