package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// winDaemon is reprise.exe's daemon running under Wine in a virtual
// desktop on Xvfb, its keys in Wine's Credential Manager.
type winDaemon struct {
	x       *xvfb.Desktop
	d       *wine.Desktop
	exe     string // reprise.exe
	dir     string // the test's files; every process whose command line names it is killed at the end
	winHome string
	logs    *os.File
}

// startWindowsDaemon starts the daemon asking for consent the prompt way
// ("cli", or "auto" for the OS dialog too).
func startWindowsDaemon(t *testing.T, prompt string) *winDaemon {
	t.Helper()
	x := xvfb.Start(t)
	w := &winDaemon{x: x, d: wine.NewDesktop(t, x.Display), exe: wine.Build(t, "./cmd/reprise"), dir: t.TempDir()}
	home := filepath.Join(w.dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wine.KillWhere(w.dir) }) // the daemon and the apps outlive explorer
	w.winHome = wine.WinPath(home)
	w.logs = wine.LogFile(t)
	cmd := w.d.Command(t, wine.WinPath(w.exe), "--home", w.winHome, "daemon", "--consent-prompt", prompt)
	cmd.Stdout, cmd.Stderr = w.logs, w.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait() }()
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		if out, err := w.cli(t, "status"); err == nil && strings.Contains(out, "running") {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("reprise.exe daemon not running under Wine after 90 s:\n%s", wine.ReadLog(w.logs))
		}
	}
}

// cli runs a reprise.exe command against the daemon, outside the desktop.
func (w *winDaemon) cli(t *testing.T, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out := wine.LogFile(t)
	cmd := wine.Command(t, w.x.Display, wine.WinPath(w.exe), append([]string{"--home", w.winHome}, args...)...)
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

// xdo plays the person in the Wine desktop: mousemove coordinates are the
// Windows screen's.
func (w *winDaemon) xdo(t *testing.T, steps ...[]string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	win, err := w.x.Window(ctx, w.d.Title())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range steps {
		if args[0] == "mousemove" {
			args = append([]string{"mousemove", "--window", win}, args[1:]...)
		}
		if _, err := w.x.Xdotool(ctx, args...); err != nil {
			t.Fatal(err)
		}
	}
}

// formShows waits until custform's -fields file says want ("first|email").
func formShows(t *testing.T, fields, want string) {
	t.Helper()
	var got []byte
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if got, _ = os.ReadFile(fields); string(got) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the form shows %q after 20 s; want %q", got, want)
		}
	}
}

// TestWindowsRecordBuildReplayUnderWine is the Windows desktop floor end to
// end, reprise.exe under Wine: a person (xdotool) files two customers in a
// plain Win32 form (internal/wine/custform), each recorded by the daemon
// through the hooks, BitBlt frames and MSAA; the recordings build a skill;
// the skill's OK files the row (destructive). Wine has no UI Automation,
// so the replay types each row of a CSV at the recorded points (SendInput,
// checked against the recorded frames) but never presses an OK that no
// accessibility tree proves: every row fails at it with nothing sent, and
// the form files nothing more. On Windows, UI Automation proves the OK.
func TestWindowsRecordBuildReplayUnderWine(t *testing.T) {
	t.Parallel() // each on a display and a Wine desktop of its own
	w := startWindowsDaemon(t, "cli")
	form := wine.Build(t, "./internal/wine/custform")
	filed, ready := filepath.Join(w.dir, "filed.txt"), filepath.Join(w.dir, "form-ready")
	formLog, fields := filepath.Join(w.dir, "form.log"), filepath.Join(w.dir, "fields")
	w.d.Start(t, form, "-out", wine.WinPath(filed), "-ready", wine.WinPath(ready), "-log", wine.WinPath(formLog),
		"-fields", wine.WinPath(fields))
	at := map[string][2]string{}
	for deadline := time.Now().Add(30 * time.Second); len(at) < 3; time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(ready)
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 3 {
				at[f[0]] = [2]string{f[1], f[2]}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the form was not up after 30 s")
		}
	}
	lines := func(n int) []string {
		t.Helper()
		var got []string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			b, _ := os.ReadFile(filed)
			got = strings.Fields(string(b))
			if len(got) >= n || time.Now().After(deadline) {
				return got
			}
		}
	}

	var recs []string
	for i, row := range [][2]string{{"Ada", "ada@example.org"}, {"Grace", "grace@example.org"}} {
		out, err := w.cli(t, "record", "start", "--yes", "--channels", "floor,desktop_ax")
		id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
		if err != nil || id == "" {
			t.Fatalf("record start: %v\n%s\ndaemon:\n%s", err, out, wine.ReadLog(w.logs))
		}
		time.Sleep(500 * time.Millisecond) // a frame of the form before the first click
		// The person waits to see what they typed before reaching for the
		// mouse: a busy Wine delivers keys later than pointer moves.
		w.xdo(t,
			[]string{"mousemove", at["first"][0], at["first"][1]}, []string{"click", "1"}, []string{"sleep", "0.7"},
			[]string{"type", "--delay", "30", row[0]})
		formShows(t, fields, row[0]+"|")
		w.xdo(t,
			[]string{"mousemove", at["email"][0], at["email"][1]}, []string{"click", "1"}, []string{"sleep", "0.7"},
			[]string{"type", "--delay", "30", row[1]})
		formShows(t, fields, row[0]+"|"+row[1])
		t.Logf("row %d: OK clicked at %s", i+1, time.Now().UTC().Format("15:04:05.000"))
		w.xdo(t, []string{"mousemove", at["ok"][0], at["ok"][1]}, []string{"click", "1"}, []string{"sleep", "0.7"})
		if got := lines(i + 1); len(got) != i+1 {
			t.Fatalf("the form filed %q; want %d customers", got, i+1)
		}
		out, err = w.cli(t, "record", "stop")
		if err != nil || !strings.Contains(out, "ax ") {
			t.Fatalf("record stop: %v\n%s", err, out)
		}
		t.Logf("row %d: %s", i+1, strings.TrimSpace(out))
		if out, err := w.cli(t, "recordings", "review", id); err != nil {
			t.Fatalf("review: %v\n%s", err, out)
		}
		recs = append(recs, id)
	}
	show, _ := w.cli(t, "recordings", "show", recs[0])
	t.Logf("first recording:\n%s", show)
	if !regexp.MustCompile(`(?m)^\d+\s+fill\s+ax\s+First Name\s+Ada\s+custform\.exe`).MatchString(show) {
		t.Errorf("the recording does not fill the form's First Name field through MSAA")
	}

	sample := filepath.Join(w.dir, "sample.csv")
	if err := os.WriteFile(sample, []byte("First Name,Email\nAda,ada@example.org\nGrace,grace@example.org\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := w.cli(t, "skill", "build", recs[0], recs[1], "--name", "win customer", "--rows", wine.WinPath(sample))
	if err != nil || !strings.Contains(out, "saved skill win-customer") {
		t.Fatalf("skill build: %v\n%s", err, out)
	}
	if sk, _ := w.cli(t, "skill", "show", "win-customer"); !regexp.MustCompile(`label: OK\n(?:\s+\S.*\n)*?\s+destructive: true`).MatchString(sk) {
		t.Errorf("the skill's OK does not file the row (destructive); a dry run would press it:\n%s", sk)
	}
	rows := "First Name,Email\n"
	for i := 1; i <= 3; i++ {
		rows += fmt.Sprintf("Name%d,name%d@example.org\n", i, i)
	}
	three := filepath.Join(w.dir, "three.csv")
	if err := os.WriteFile(three, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	// Replay must run in the form's desktop: input and window lookups are
	// per desktop on Windows.
	t.Logf("replay starts at %s", time.Now().UTC().Format("15:04:05.000"))
	said, code := w.d.RunInDesktop(t, 3*time.Minute, "y\r\n", wine.WinPath(w.exe),
		"--home", w.winHome, "replay", "win-customer", "--rows", wine.WinPath(three))
	t.Logf("replay said (exit %d):\n%s", code, said)
	if got := lines(2); code == 0 || len(got) != 2 || !strings.Contains(said, " 0 committed") {
		fl, _ := os.ReadFile(formLog)
		t.Fatalf("exit %d, the form filed %q; want nothing committed or filed after the two demonstrated\nform's log:\n%s", code, got, fl)
	}
	// Each row fails: at its OK, which nothing proves, or before it (a
	// busy Wine may drop keys, and the read-back then fails the fill).
	failures := regexp.MustCompile(`(?m)^\s*row (\d) failed at step (\d) \([^)]*\): (.*)$`).FindAllStringSubmatch(said, -1)
	if len(failures) != 3 {
		t.Errorf("%d rows failed; want all 3", len(failures))
	}
	for _, f := range failures {
		if f[2] == "5" && !strings.Contains(f[3], "never clicked by position alone") {
			t.Errorf("row %s failed at its OK for another reason: %s", f[1], f[3])
		}
	}
}

// TestWindowsConsentDialogUnderWine: with no terminal answer, the daemon
// asks for consent in a Windows message box (MessageBoxW, here under
// Wine): the person presses Y, then N to "remember", and the recording
// starts; the CLI, which asked too, drops its own question. A second
// request answered with Enter (the default button, No) is refused.
func TestWindowsConsentDialogUnderWine(t *testing.T) {
	t.Parallel() // each on a display and a Wine desktop of its own
	w := startWindowsDaemon(t, "auto")
	answered := func(n int) bool { return strings.Count(wine.ReadLog(w.logs), "consent answered") >= n }
	start := func() (*os.File, func() (string, error)) {
		t.Helper()
		stdin, hold, err := os.Pipe() // a terminal nobody types into
		if err != nil {
			t.Fatal(err)
		}
		out := wine.LogFile(t)
		cmd := wine.Command(t, w.x.Display, wine.WinPath(w.exe), "--home", w.winHome, "record", "start", "--channels", "floor,desktop_ax")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stdin.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		t.Cleanup(func() { hold.Close() })
		return out, func() (string, error) {
			select {
			case err := <-done:
				return wine.ReadLog(out), err
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				return wine.ReadLog(out), fmt.Errorf("record start still waiting after 30 s")
			}
		}
	}
	// press sends key to the desktop until done says the box took it: a
	// key sent before the box has the focus is lost, and a busy machine
	// shows it late.
	press := func(key string, done func() bool) {
		t.Helper()
		for try := 0; try < 20 && !done(); try++ {
			w.xdo(t, []string{"key", key}, []string{"sleep", "0.7"})
		}
		if !done() {
			t.Fatalf("the message box took no answer:\n%s", wine.ReadLog(w.logs))
		}
	}
	// asked is the n-th "remember this choice?" box up: the first answered.
	asked := func(n int) func() bool {
		return func() bool { return strings.Count(wine.ReadLog(w.logs), "asking whether to remember it") >= n }
	}
	answeredN := func(n int) func() bool { return func() bool { return answered(n) } }
	waitQuestion := func(out *os.File) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(wine.ReadLog(out), "[y/N]"); time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("record start asked nothing:\n%s", wine.ReadLog(out))
			}
		}
		time.Sleep(time.Second) // the message box comes up in the desktop
	}

	out, wait := start()
	waitQuestion(out)
	press("y", asked(1))
	press("n", answeredN(1))
	said, err := wait()
	if err != nil || !strings.Contains(said, "answered elsewhere") || !strings.Contains(said, "recording rec_") {
		t.Fatalf("record start: %v\n%s\ndaemon:\n%s", err, said, wine.ReadLog(w.logs))
	}
	if log := wine.ReadLog(w.logs); !strings.Contains(log, "consent.prompter=messagebox consent.approved=true consent.remember=false") {
		t.Errorf("the daemon did not take the answer from the message box:\n%s", log)
	}
	if out, err := w.cli(t, "record", "stop"); err != nil {
		t.Fatalf("record stop: %v\n%s", err, out)
	}

	out, wait = start()
	waitQuestion(out)
	press("Return", asked(2))
	press("Return", answeredN(2))
	if said, err := wait(); err == nil || strings.Contains(said, "recording rec_") {
		t.Fatalf("record start after No: %v\n%s; want refused", err, said)
	}
	if log := wine.ReadLog(w.logs); !strings.Contains(log, "consent.prompter=messagebox consent.approved=false") {
		t.Errorf("the daemon did not take No from the message box:\n%s", log)
	}
}
