// Package e2e starts the reprise binary as a person's machine runs it, for
// the end-to-end suites (cmd/reprise's and e2e/...): it builds the binary,
// starts its daemon on a data dir and waits until it answers, and reads
// and writes the files a person hands it and gets back.
package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/replay/report"
)

// Main is a suite's TestMain: it builds the reprise command into a
// directory of its own, sets *binary to it, runs the tests, removes the
// directory and exits with the tests' code.
func Main(m *testing.M, binary *string) {
	dir, err := os.MkdirTemp("", "reprise-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *binary, err = Build(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Build builds the reprise command into dir and returns its path.
func Build(dir string) (string, error) {
	binary := filepath.Join(dir, "reprise")
	out, err := exec.Command("go", "build", "-o", binary, "github.com/reprise-dev/reprise/cmd/reprise").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("build reprise: %w\n%s", err, out)
	}
	return binary, nil
}

// StartDaemon starts `binary daemon args...` on the data dir home, its
// log going to logs, and returns once its status names its process; the
// test's cleanup kills it unless the test waited for it.
func StartDaemon(t *testing.T, binary, home string, logs interface {
	io.Writer
	String() string
}, args ...string) *exec.Cmd {
	t.Helper()
	return StartDaemonEnv(t, binary, home, nil, logs, args...)
}

// StartDaemonEnv is StartDaemon with env added to this process's
// environment: a daemon of another desktop (its DISPLAY, its session bus).
func StartDaemonEnv(t *testing.T, binary, home string, env []string, logs interface {
	io.Writer
	String() string
}, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"daemon"}, args...)...)
	cmd.Env = append(append(os.Environ(), env...), daemon.HomeEnv+"="+home)
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := client.QueryStatus(home)
		if err == nil && st.PID == cmd.Process.Pid {
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("daemon not ready: %v\nlogs:\n%s", err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WriteCSV writes header and rows to path as a CSV and returns path.
func WriteCSV(t *testing.T, path string, header []string, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	w.WriteAll(rows)
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// ReadReport reads the rows of the JSON report `reprise replay --report`
// wrote to path.
func ReadReport(t *testing.T, path string) []report.Row {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	var doc struct {
		Rows []report.Row `json:"rows"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Rows
}
