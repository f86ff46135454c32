// Package forms is reprise end to end on forms a person files: the form
// zoo (TestZoo, TestZooLibraries) and a form changed under a kept skill.
// It builds the reprise binary and plays the person through a daemon and
// Chromium with the extension; it is its own package so that go test runs
// it beside cmd/reprise's suite, not after it.
package forms

import (
	"os/exec"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/replay/browser"
)

// binary is the reprise command the tests run, built by TestMain.
var binary string

// joinWait bounds the wait for the extension to join a recording, as
// record start bounds it.
const joinWait = 10 * time.Second

func TestMain(m *testing.M) {
	browser.SandboxOffAsRoot() // the daemon's and replay's browsers, as root in a container
	e2e.Main(m, &binary)
}

// startDaemonProcessLogs starts `reprise daemon` on home, its log in logs,
// and waits until it answers.
func startDaemonProcessLogs(t *testing.T, home string, logs *syncbuf.Buffer, args ...string) *exec.Cmd {
	t.Helper()
	return e2e.StartDaemon(t, binary, home, logs, args...)
}
