package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
)

// The distinctive values of testdata/distinctive.json: an ordinary value that
// must survive (sealed on disk), and secrets that must be redacted.
var (
	ordinaryValue = "ZEBRA-7731-QUOKKA"
	secretValues  = []string{"Tr0ub4dor&3horse", "4111 1111 1111 1111", "4111111111111111", "ghp_Zq8xW2vB7nM4kL9pR3tY6uI1oE5aS0dF2gH4"}
)

// TestNoPlaintextOnDisk records a scripted demonstration with distinctive
// values, then searches every byte under the data dir and every log line:
// none of them may appear. A second recording evicts the first
// (keep_recordings 1), which is then not found; daemon's TestEviction checks
// its data key is gone.
func TestNoPlaintextOnDisk(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"keep_recordings": 1}`), 0o600)
	script, _ := filepath.Abs(filepath.Join("testdata", "distinctive.json"))
	var logs syncbuf.Buffer
	d := startDaemonProcessLogs(t, home, &logs, "--capture-script", script, "--capture-speed", "0", "--consent-prompt", "cli", "--log-level", "debug")

	record := func() string {
		out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,browser")
		if err != nil {
			t.Fatalf("record start: %v\n%s%s", err, out, stderr)
		}
		id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
		time.Sleep(200 * time.Millisecond)
		if out, stderr, err := run(t, home, "record", "stop"); err != nil || !strings.Contains(out, "6 steps") {
			t.Fatalf("record stop: %v\n%s%s", err, out, stderr)
		}
		return id
	}
	first := record()
	out, _, err := run(t, home, "recordings", "fetch", first)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := events.DecodeRecordingJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if !rec.RedactionApplied || rec.Steps[1].Value.Raw != ordinaryValue {
		t.Fatalf("fetched recording: redaction_applied %v, step 2 value kept %v; want both", rec.RedactionApplied, rec.Steps[1].Value.Raw == ordinaryValue)
	}
	for _, s := range rec.Steps[2:5] {
		if s.Value.Raw != "" || !s.Redacted {
			t.Errorf("step %d (%s) kept its secret value", s.Seq, s.Enrichment.Label)
		}
	}

	// A second recording evicts the first (keep_recordings is 1).
	second := record()
	if _, stderr, err := run(t, home, "recordings", "fetch", first); err == nil || !strings.Contains(stderr, "RECORDING_NOT_FOUND") {
		t.Fatalf("fetch of the evicted recording: %v %s", err, stderr)
	}
	if _, _, err := run(t, home, "recordings", "fetch", second); err != nil {
		t.Fatalf("fetch of the kept recording: %v", err)
	}
	d.Process.Signal(os.Interrupt)
	d.Wait()

	for _, v := range append([]string{ordinaryValue}, secretValues...) {
		if n := filesContaining(t, home, v); len(n) > 0 {
			t.Errorf("%q found in plaintext in %v", v, n)
		}
		if strings.Contains(logs.String(), v) {
			t.Errorf("%q found in the daemon's log", v)
		}
	}
}

// filesContaining lists the files under dir whose bytes contain s (every
// file when s is empty).
func filesContaining(t *testing.T, dir, s string) []string {
	t.Helper()
	var hits []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(s)) {
			hits = append(hits, path)
		}
		return nil
	})
	return hits
}
