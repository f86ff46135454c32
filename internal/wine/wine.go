// Package wine runs reprise's Windows code under Wine for Linux-side tests:
// scripts/wine makes a private prefix and the runner .tools/bin/wine-exec;
// this package finds them (or skips the test loudly), cross-builds Windows
// programs, and starts them on an X display.
package wine

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Root returns the module's root directory (where go.mod is).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// Runner returns the path of .tools/bin/wine-exec, or skips the test loudly
// when Wine is not set up here.
func Runner(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("SKIPPED: the Wine tests run on linux/amd64 only, not on %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	runner := filepath.Join(Root(t), ".tools", "bin", "wine-exec")
	if _, err := os.Stat(runner); err != nil {
		t.Skipf("SKIPPED: WINE IS NOT SET UP, so the Windows code is not tested here: run scripts/wine (it installs Wine 8 and writes %s)", runner)
	}
	if _, err := os.Stat("/usr/lib/wine/wine64"); err != nil {
		if _, err := exec.LookPath("wine"); err != nil {
			t.Skipf("SKIPPED: %s is there but Wine is not installed: run scripts/wine", runner)
		}
	}
	return runner
}

// Build cross-builds the main package pkg (an import path or ./dir relative
// to the module root) for windows/amd64 and returns the .exe's path.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), filepath.Base(pkg)+".exe")
	cmd := exec.Command("go", "build", "-o", exe, pkg)
	cmd.Dir = Root(t)
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build %s for Windows: %v\n%s", pkg, err, out)
	}
	return exe
}

// TestBinary cross-builds pkg's tests for windows/amd64 (go test -c) and
// returns the .exe's path.
func TestBinary(t testing.TB, pkg string) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), filepath.Base(pkg)+".test.exe")
	cmd := exec.Command("go", "test", "-c", "-o", exe, pkg)
	cmd.Dir = Root(t)
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the tests of %s for Windows: %v\n%s", pkg, err, out)
	}
	return exe
}

// Command returns a command that runs the Windows program exe with args
// under Wine, on the X display display ("" for none). Its standard input,
// output and error are nil (/dev/null) unless the caller sets them, to
// files (LogFile), never pipes: a pipe held by a Wine service hangs
// whoever waits for it.
func Command(t testing.TB, display, exe string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(Runner(t), append([]string{exe}, args...)...)
	env := make([]string, 0, len(os.Environ())+1)
	for _, kv := range os.Environ() {
		if len(kv) < 8 || kv[:8] != "DISPLAY=" {
			env = append(env, kv)
		}
	}
	if display != "" {
		env = append(env, "DISPLAY="+display)
	}
	cmd.Env = env
	return cmd
}

// WinPath returns the Windows path of the Linux path p under Wine's Z:
// drive, which maps the Linux root.
func WinPath(p string) string {
	b := []byte("Z:" + p)
	for i, c := range b {
		if c == '/' {
			b[i] = '\\'
		}
	}
	return string(b)
}

// KillWhere kills every process whose command line holds marker (a test's
// own temp path), as a Linux or a Windows (Z:) path: a Windows program Wine
// started through
// explorer outlives the explorer process a test holds, so killing that
// one is not enough. Linux only; elsewhere it does nothing.
func KillWhere(marker string) {
	if marker == "" || runtime.GOOS != "linux" {
		return
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmdline), marker) && !strings.Contains(string(cmdline), WinPath(marker)) {
			continue
		}
		if proc, err := os.FindProcess(pid); err == nil {
			_ = proc.Kill()
		}
	}
}
