package wine

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
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// Recorded is what cmd hookprobe wrote during a NotepadSession.
type Recorded struct {
	Steps  []events.Step
	Frames map[string]int // stored frame ref -> PNG size
	Stats  string         // the hooks' Stats line, when the probe wrote one
	Log    string         // the probe's own output
}

// NotepadSession plays a person at notepad while internal/wine/hookprobe
// records under Wine, and returns what it recorded. The probe (with args,
// such as -floor) runs in a fresh Wine virtual desktop on its own Xvfb,
// with notepad at 100,80 (600 by 400). The person, through xdotool (input
// from the X server, which Wine does not flag as injected):
//
//	clicks notepad's text area at 300,250, types "Hi there", presses
//	Return, then ctrl+a, and right-clicks the desktop at 900,600,
//
// each time waiting, as a person would, to see the last action land in
// notepad before the next.
func NotepadSession(t testing.TB, args ...string) Recorded {
	t.Helper()
	began := time.Now()
	x := xvfb.Start(t)
	d := NewDesktop(t, x.Display) // skips loudly when scripts/wine has not run
	exe := Build(t, "./internal/wine/hookprobe")
	dir := t.TempDir()
	out, stop, state := filepath.Join(dir, "steps.jsonl"), filepath.Join(dir, "stop"), filepath.Join(dir, "state")
	cmd := d.Command(t, WinPath(exe), append([]string{"-notepad", "-state", WinPath(state), "-out", WinPath(out),
		"-stop", WinPath(stop), "-for", "90s"}, args...)...)
	logs := LogFile(t)
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
			t.Fatalf("hookprobe under Wine exited before it was ready: %v\n%s", waitErr, ReadLog(logs))
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("hookprobe was not ready in 60 s:\n%s", ReadLog(logs))
		}
	}
	t.Logf("Wine virtual desktop, notepad and hookprobe %v ready after %v", args, time.Since(began).Round(time.Millisecond))

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	win, err := x.Window(ctx, d.Title())
	if err != nil {
		t.Fatal(err)
	}
	xdo := func(args ...string) {
		t.Helper()
		if _, err := x.Xdotool(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
	// notepadShows waits until notepad's state (wine.NotepadState) is want.
	notepadShows := func(want string) {
		t.Helper()
		var got []byte
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if got, _ = os.ReadFile(state); string(got) == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("notepad holds %q after 20 s; want %q", got, want)
			}
		}
	}
	xdo("windowactivate", "--sync", win)
	xdo("mousemove", "--window", win, "300", "250")
	time.Sleep(200 * time.Millisecond)
	xdo("click", "1")
	time.Sleep(600 * time.Millisecond) // past the double-click time
	xdo("type", "--delay", "30", "Hi there")
	notepadShows("sel 8 8\nHi there")
	xdo("key", "Return")
	notepadShows("sel 10 10\nHi there\r\n")
	xdo("key", "ctrl+a")
	notepadShows("sel 0 10\nHi there\r\n")
	xdo("mousemove", "--window", win, "900", "600")
	time.Sleep(200 * time.Millisecond)
	xdo("click", "3")
	time.Sleep(300 * time.Millisecond)

	if err := os.WriteFile(stop, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(20 * time.Second):
		t.Fatal("hookprobe did not stop in 20 s")
	}
	rec := Recorded{Frames: map[string]int{}, Log: ReadLog(logs)}
	sc := bufio.NewScanner(strings.NewReader(read()))
	for sc.Scan() {
		line := sc.Text()
		var frame struct {
			Frame string `json:"frame"`
			PNG   int    `json:"png"`
		}
		switch {
		case line == "ready":
		case strings.HasPrefix(line, `{"stats"`):
			rec.Stats = line
		case strings.HasPrefix(line, `{"frame"`) && json.Unmarshal([]byte(line), &frame) == nil:
			rec.Frames[frame.Frame] = frame.PNG
		default:
			var s events.Step
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatalf("step line %q: %v", line, err)
			}
			rec.Steps = append(rec.Steps, s)
		}
	}
	t.Logf("recorded %d steps, %d frames; stats %s; whole session %v", len(rec.Steps), len(rec.Frames), rec.Stats,
		time.Since(began).Round(time.Millisecond))
	for _, s := range rec.Steps {
		v := ""
		if s.Value != nil {
			v = s.Value.Raw
		}
		t.Logf("step %s %q at %v in %q/%q, frame %q, enrichment %+v", s.Action, v, s.Cursor, s.ActiveApp, s.ActiveWindow,
			s.ScreenshotRef, s.Enrichment)
	}
	return rec
}
