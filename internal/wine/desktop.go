package wine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

// DesktopSize is the size of the virtual desktops tests make.
const DesktopSize = "1024x700"

// Desktop is a Wine virtual desktop on an X display: one X window holding
// every Wine window started in it, so that hooks see a click anywhere on
// it. Each test gets a desktop of its own name: Wine binds a desktop to the
// display of the process that made it, and the persistent wineserver
// outlives tests (a reused name would send its windows to a dead display).
type Desktop struct {
	Name    string
	Display string
}

var desktops atomic.Int64

// NewDesktop names a fresh desktop on display; Wine makes it when the first
// program starts in it.
func NewDesktop(t testing.TB, display string) *Desktop {
	t.Helper()
	Runner(t) // skips loudly when Wine is not set up
	return &Desktop{Name: fmt.Sprintf("reprise%d-%d", os.Getpid(), desktops.Add(1)), Display: display}
}

// Title is the title of the desktop's X window.
func (d *Desktop) Title() string { return d.Name + " - Wine desktop" }

// Command returns a command running the Windows program exe (a path, or a
// program Wine has such as "notepad") with args in the desktop. The
// environment says REPRISE_WINE_DESKTOP=<name>, which the Windows-side
// tests that drive a desktop require.
func (d *Desktop) Command(t testing.TB, exe string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := Command(t, d.Display, "explorer", append([]string{"/desktop=" + d.Name + "," + DesktopSize, exe}, args...)...)
	cmd.Env = append(cmd.Env, "REPRISE_WINE_DESKTOP="+d.Name)
	return cmd
}

// Start starts exe in the desktop and stops it when the test ends. A
// program started in a desktop that exists already runs detached: Start
// the program that drives the test first.
func (d *Desktop) Start(t testing.TB, exe string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := d.Command(t, exe, args...)
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s under Wine: %v", exe, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
		}
	})
	return cmd
}

// RunTests runs the Windows test binary exe (from TestBinary) in the
// desktop with -test.run set to run, logs its output, and fails the test
// unless it passed having run at least one test. The test binary must be
// the first program in the desktop, the one that makes it: explorer waits
// only for that one (a program started in a desktop that exists already
// runs detached, and its output would be cut short). So the Windows-side
// tests start the apps they need themselves (Notepad). Explorer does not pass on
// a program's exit status, so the verdict is read from the output, as go
// test's own last line gives it.
func (d *Desktop) RunTests(t testing.TB, exe, run string) string {
	t.Helper()
	text := d.runTests(t, exe, run)
	// Now and then (1 run of make test in about 20, at its busy start,
	// with other packages starting Wine programs too) explorer fails to
	// start the program at all: ShellExecuteEx "Internal error", before a
	// line of it ran. That is Wine's launch, not the code under test: start
	// it again, at most twice, in a desktop of a new name: in the one the
	// failed launch may have made, it would run detached.
	for try := 1; try < 3 && notStarted(text); try++ {
		t.Logf("Wine did not start %s (try %d): starting it again", filepath.Base(exe), try)
		d.Name = NewDesktop(t, d.Display).Name
		text = d.runTests(t, exe, run)
	}
	t.Logf("Windows tests %s under Wine:\n%s", run, text)
	if !Passed(text) || !strings.Contains(text, "=== RUN") {
		t.Fatalf("Windows tests %s did not pass under Wine", run)
	}
	if strings.Contains(text, "--- SKIP") {
		t.Errorf("a Windows test skipped under Wine, where it must run (see its reason above)")
	}
	return text
}

// notStarted says whether a test binary's output under Wine is only
// explorer's refusal to start it.
func notStarted(text string) bool {
	return strings.Contains(text, "ShellExecuteEx failed") && !strings.Contains(text, "=== RUN")
}

// runTests runs exe's tests matching run once and returns their output.
func (d *Desktop) runTests(t testing.TB, exe, run string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := d.Command(t, exe, "-test.run", run, "-test.v", "-test.count=1", "-test.timeout=4m")
	out := LogFile(t)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s under Wine: %v", exe, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil && !notStarted(ReadLog(out)) {
			t.Errorf("Windows tests %s under Wine: %v", run, err)
		}
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("Windows tests %s under Wine did not finish in 5 minutes:\n%s", run, ReadLog(out))
	}
	return strings.ReplaceAll(ReadLog(out), "\r\n", "\n")
}

// LogFile returns a file for a Wine program's output, removed when the
// test ends. Never give Wine a pipe (a bytes.Buffer as Stdout makes one):
// the services Wine starts inherit it and hold it open, and Wait waits for
// them forever.
func LogFile(t testing.TB) *os.File {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "wine-*.log")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// ReadLog returns what was written to a LogFile so far.
func ReadLog(f *os.File) string {
	b, _ := os.ReadFile(f.Name())
	return string(b)
}

// InDesktop skips a Windows-side test that drives the desktop (moves the
// pointer, types, starts programs) unless a Linux-side test runs it in a
// Wine virtual desktop (or a person on a Windows machine opts in by setting
// REPRISE_WINE_DESKTOP).
func InDesktop(t testing.TB) {
	t.Helper()
	if os.Getenv("REPRISE_WINE_DESKTOP") == "" {
		t.Skip("SKIPPED: this test drives the desktop; it runs under Wine from its Linux-side test " +
			"(set REPRISE_WINE_DESKTOP=1 to run it on a Windows desktop you do not mind it using)")
	}
}

// RunWindowsTests cross-builds pkg's tests for Windows and runs those
// matching run in a fresh Wine virtual desktop on a fresh Xvfb: the
// Linux-side half of every Windows test that needs a desktop.
func RunWindowsTests(t *testing.T, pkg, run string) {
	t.Helper()
	Runner(t) // skips loudly when scripts/wine has not run
	began := time.Now()
	exe := TestBinary(t, pkg)
	x := xvfb.Start(t)
	NewDesktop(t, x.Display).RunTests(t, exe, run)
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}

// RunInDesktop runs exe with args in the desktop once it exists (a program
// started in an existing desktop runs detached from explorer, so this goes
// through a batch file) and returns its output and exit status once it has
// exited; stdin, if not "", is the program's standard input. It fails the
// test after timeout.
func (d *Desktop) RunInDesktop(t testing.TB, timeout time.Duration, stdin, exe string, args ...string) (string, int) {
	t.Helper()
	dir := t.TempDir()
	out, status := filepath.Join(dir, "out.txt"), filepath.Join(dir, "status.txt")
	line := quoteBatch(exe)
	for _, a := range args {
		line += " " + quoteBatch(a)
	}
	if stdin != "" {
		in := filepath.Join(dir, "stdin.txt")
		if err := os.WriteFile(in, []byte(stdin), 0o600); err != nil {
			t.Fatal(err)
		}
		line += " < " + quoteBatch(WinPath(in))
	}
	bat := "@echo off\r\n" + line + " > " + quoteBatch(WinPath(out)) + " 2>&1\r\n" +
		"echo %ERRORLEVEL% > " + quoteBatch(WinPath(status)) + "\r\n"
	batPath := filepath.Join(dir, "run.bat")
	if err := os.WriteFile(batPath, []byte(bat), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := d.Command(t, "cmd", "/c", WinPath(batPath))
	if err := cmd.Run(); err != nil {
		t.Fatalf("start %s in the desktop: %v", exe, err)
	}
	for deadline := time.Now().Add(timeout); ; time.Sleep(200 * time.Millisecond) {
		if b, err := os.ReadFile(status); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			code, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s's exit status %q: %v", exe, b, err)
			}
			o, _ := os.ReadFile(out)
			return strings.ReplaceAll(string(o), "\r\n", "\n"), code
		}
		if time.Now().After(deadline) {
			KillWhere(dir)
			o, _ := os.ReadFile(out)
			t.Fatalf("%s did not finish in %v; its output:\n%s", exe, timeout, o)
		}
	}
}

// quoteBatch quotes a batch file argument: percent signs doubled, and
// double quotes around one with a space or a shell character.
func quoteBatch(s string) string {
	s = strings.ReplaceAll(s, "%", "%%")
	if strings.ContainsAny(s, " &|<>^,;=()") {
		return `"` + s + `"`
	}
	return s
}

// Passed reports whether a Go test binary's output under Wine ends in its
// PASS verdict: the last line that is PASS or FAIL. Wine may print its own
// diagnostics after it ("wine client error: ..." while the wineserver
// shuts down), so the verdict is not always the last line.
func Passed(text string) bool {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		switch strings.TrimSpace(lines[i]) {
		case "PASS":
			return true
		case "FAIL":
			return false
		}
	}
	return false
}
