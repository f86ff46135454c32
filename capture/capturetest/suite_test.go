package capturetest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/capturetest"
)

// brokenEnv names the broken fake a child test process runs the suite on.
const brokenEnv = "CAPTURETEST_BROKEN"

func TestSuitePassesAGoodSource(t *testing.T) {
	capturetest.Run(t, func(t *testing.T) capture.Source { return &fake{} }, nil, 3)
}

func TestSuitePassesAGoodDrivenSource(t *testing.T) {
	capturetest.Run(t, func(t *testing.T) capture.Source { return &fake{driven: true} },
		func(t *testing.T, s capture.Source) { s.(*fake).poke(3) }, 3)
}

// TestSuiteCatchesBrokenSources runs the suite, in a child process, on a
// source broken in one way at a time: each run must fail, saying why.
func TestSuiteCatchesBrokenSources(t *testing.T) {
	if os.Getenv(brokenEnv) != "" {
		t.Skip("inside a child run")
	}
	if testing.Short() {
		t.Skip("runs the suite once per broken source, in child processes")
	}
	for _, tc := range []struct {
		broken string
		driven bool
		want   string
	}{
		{"empty name", false, `Name() = ""`},
		{"unknown channel", false, `Channels() holds "screen"`},
		{"no reason", false, `Available() = false, ""`},
		{"sets seq", false, "has seq 7; want 0"},
		{"leaves ts zero", false, "has no ts"},
		{"stale ts", false, "has ts 1712345600.000; want the time of the action"},
		{"agent actor", false, `has actor "agent"`},
		{"bad cursor", false, "Validate() = invalid step.cursor"},
		{"emits after Stop", false, "Emit calls after Stop returned"}, // how many depends on the machine's load
		{"ignores ctx", false, "after ctx was cancelled"},
		{"blocks on a full sink", false, "Emit calls into a full sink"},
		{"closes its stop channel twice", false, "close of closed channel"},
		{"fails Stop without Start", false, "Stop() = not started; want nil"},
		{"holds a global hook", false, "hook already installed"},
		{"keeps its hook after Stop", true, "Emit calls after Stop returned"},
		{"ignores ctx", true, "after ctx was cancelled and emission had stopped"},
	} {
		name := tc.broken
		if tc.driven {
			name += " (driven)"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestBroken$", "-test.v", "-test.timeout=2m")
			cmd.Env = append(os.Environ(), brokenEnv+"="+tc.broken)
			if tc.driven {
				cmd.Env = append(cmd.Env, brokenEnv+"_DRIVEN=1")
			}
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a source that %s; want it to fail\n%s", name, out)
			}
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("the suite failed a source that %s without saying %q:\n%s", name, tc.want, out)
			}
		})
	}
}

// TestBroken is the child run of TestSuiteCatchesBrokenSources.
func TestBroken(t *testing.T) {
	broken := os.Getenv(brokenEnv)
	if broken == "" {
		t.Skip("runs only as a child of TestSuiteCatchesBrokenSources")
	}
	// A broken source may never produce its steps; the child need not
	// wait the full default for that.
	capturetest.StepTimeout = 3 * time.Second
	driven := os.Getenv(brokenEnv+"_DRIVEN") != ""
	var drive func(*testing.T, capture.Source)
	if driven {
		drive = func(t *testing.T, s capture.Source) { s.(*fake).poke(3) }
	}
	capturetest.Run(t, func(t *testing.T) capture.Source { return &fake{broken: broken, driven: driven} }, drive, 3)
}
