package uia_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestUIAUnderWine runs the package's Windows-side tests under Wine 8.
// Wine 8 has no UI Automation client (CoCreateInstance(CUIAutomation)
// answers REGDB_E_CLASSNOTREG: uiautomationcore's DllGetClassObject is a
// stub), so TestWineNew skips there and the COM code runs against
// testdata/fakeuia, a UIA server in C built here with mingw (TestWineFake).
// Under a Wine that has the client, the notepad test runs too, in a Wine
// virtual desktop on Xvfb.
func TestUIAUnderWine(t *testing.T) {
	wine.Runner(t) // skips loudly when scripts/wine has not run
	gcc, err := exec.LookPath("x86_64-w64-mingw32-gcc")
	if err != nil {
		t.Skip("SKIPPED: no mingw compiler for the fake UIA server: run scripts/wine (it installs gcc-mingw-w64-x86-64-win32)")
	}
	dir := t.TempDir()
	dll := filepath.Join(dir, "fakeuia.dll")
	if out, err := exec.Command(gcc, "-O1", "-Wall", "-shared", "-o", dll, "testdata/fakeuia/fakeuia.c", "-loleaut32").CombinedOutput(); err != nil {
		t.Fatalf("build the fake UIA server: %v\n%s", err, out)
	}
	exe := wine.TestBinary(t, "./platform/ax/uia")

	log := filepath.Join(dir, "out.txt")
	f, err := os.Create(log) // a file, not a pipe: a Wine service holding a pipe would hang its reader
	if err != nil {
		t.Fatal(err)
	}
	cmd := wine.Command(t, "", exe, "-test.run", "^TestWine(New|Fake)$", "-test.v", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(cmd.Env, "REPRISE_UIA_FAKE_DLL="+wine.WinPath(dll))
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(3*time.Minute, func() { _ = cmd.Process.Kill() })
	runErr := cmd.Wait()
	timer.Stop()
	f.Close()
	b, _ := os.ReadFile(log)
	text := strings.ReplaceAll(string(b), "\r\n", "\n")
	t.Logf("Windows tests under Wine:\n%s", text)
	// Wine sometimes kills a finished process while its wineserver shuts
	// down, after PASS: the test binary's own verdict counts.
	if runErr != nil {
		t.Logf("the Wine process ended with %v", runErr)
	}
	if !wine.Passed(text) || !strings.Contains(text, "--- PASS: TestWineFake") {
		t.Fatalf("the Windows tests did not pass under Wine (%v)", runErr)
	}
	if strings.Contains(text, "--- SKIP: TestWineNew") {
		if !strings.Contains(text, "REGDB_E_CLASSNOTREG") {
			t.Fatal("TestWineNew skipped for another reason than Wine 8's missing UIA client")
		}
		t.Log("Wine has no UI Automation client: the COM code ran against the fake server only; the notepad test needs a Wine with uiautomationcore's CUIAutomation")
		return
	}
	x := xvfb.Start(t)
	d := wine.NewDesktop(t, x.Display)
	d.RunTests(t, exe, "^TestWineDesktop")
}
