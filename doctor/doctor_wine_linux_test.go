package doctor_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/doctor"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestDoctorUnderWine runs the real reprise.exe's `doctor --format json
// --request` under Wine 8 on an Xvfb display, with a data dir of the
// test's own, and checks its report of the Windows floor: the input hooks,
// MSAA and the BitBlt frames work there; UI Automation does not (Wine 8 has
// no UIA client: CoCreateInstance answers REGDB_E_CLASSNOTREG) and the
// report says why; --request says there is nothing to ask for, on stderr,
// leaving stdout the JSON report alone.
func TestDoctorUnderWine(t *testing.T) {
	wine.Runner(t) // skips loudly when scripts/wine has not run
	began := time.Now()
	exe := wine.Build(t, "./cmd/reprise")
	built := time.Since(began)
	x := xvfb.Start(t)
	home := t.TempDir()
	stdout, stderr := wine.LogFile(t), wine.LogFile(t) // files, never pipes: see wine.Command
	cmd := wine.Command(t, x.Display, exe, "--home", wine.WinPath(home), "doctor", "--format", "json", "--request")
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ran := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start reprise.exe under Wine: %v", err)
	}
	timer := time.AfterFunc(45*time.Second, func() { _ = cmd.Process.Kill() })
	err := cmd.Wait()
	timer.Stop()
	out, errs := wine.ReadLog(stdout), strings.ReplaceAll(wine.ReadLog(stderr), "\r\n", "\n")
	t.Logf("reprise.exe doctor under Wine (build %v, run %v), stdout:\n%s\nstderr:\n%s",
		built.Round(time.Millisecond), time.Since(ran).Round(time.Millisecond), out, errs)
	if err != nil {
		t.Fatalf("reprise.exe doctor under Wine: %v", err)
	}
	var r doctor.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("stdout is not the JSON report: %v", err)
	}
	if r.OS != "windows" {
		t.Errorf("report OS = %q; want windows", r.OS)
	}
	if !strings.Contains(errs, "--request: nothing to ask for on windows") {
		t.Errorf("stderr does not say --request had nothing to ask for")
	}
	checks := map[string]doctor.Check{}
	for _, c := range r.Checks {
		checks[c.Name] = c
	}
	for _, name := range []string{"capture: input hooks", "accessibility: MSAA", "capture: frames"} {
		if c, ok := checks[name]; !ok || !c.OK {
			t.Errorf("check %q = %+v (listed %v); want ok under Wine", name, c, ok)
		}
	}
	if c := checks["capture: frames"]; !strings.Contains(c.Detail, "x") || strings.Contains(c.Detail, "(0x0)") {
		t.Errorf("frames check %q does not give the screen's size", c.Detail)
	}
	uia, ok := checks["accessibility: UI Automation"]
	if !ok || uia.OK || !strings.Contains(uia.Detail, "REGDB_E_CLASSNOTREG") || !strings.Contains(uia.Detail, "MSAA") || uia.Fix == "" {
		t.Errorf("UI Automation check = %+v (listed %v); want not ok, naming REGDB_E_CLASSNOTREG and the MSAA fallback, with a fix", uia, ok)
	}
	if c, ok := checks["replay: elevation"]; !ok || !c.OK || c.Detail == "" {
		t.Errorf("elevation check = %+v (listed %v); want it reported", c, ok)
	}
	if c := checks["data dir"]; !c.OK {
		t.Errorf("data dir check = %+v; want the test's own dir, writable", c)
	}
}
