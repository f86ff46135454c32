package wine

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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

// Start starts exe in the desktop and stops it when the test ends.
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
// unless it passed having run at least one test. Explorer does not pass on
// a program's exit status, so the verdict is read from the output, as go
// test's own last line gives it.
func (d *Desktop) RunTests(t testing.TB, exe, run string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := d.Command(t, exe, "-test.run", run, "-test.v", "-test.count=1", "-test.timeout=4m")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s under Wine: %v", exe, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Windows tests %s under Wine: %v", run, err)
		}
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("Windows tests %s under Wine did not finish in 5 minutes:\n%s", run, out.String())
	}
	text := strings.ReplaceAll(out.String(), "\r\n", "\n")
	t.Logf("Windows tests %s under Wine:\n%s", run, text)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if last := lines[len(lines)-1]; last != "PASS" || !strings.Contains(text, "=== RUN") {
		t.Fatalf("Windows tests %s did not pass under Wine (last line %q)", run, last)
	}
	if strings.Contains(text, "--- SKIP") {
		t.Errorf("a Windows test skipped under Wine, where it must run (see its reason above)")
	}
	return text
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
