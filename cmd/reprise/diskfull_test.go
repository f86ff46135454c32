package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/store"
)

// TestStoreRecoversWhenSpaceReturns: the disk fills during a recording (a
// file written beside the store leaves it 8 MB): the writes past the room
// left are refused, record stop exits non-zero counting them lost, and once
// the file is removed the same daemon, never restarted, records the next
// recording whole.
func TestStoreRecoversWhenSpaceReturns(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=96m,mode=0700", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("FULL-DISK TEST SKIPPED: cannot mount a small tmpfs here (%v: %s); it needs root or CAP_SYS_ADMIN", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", home).Run() })
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(`{"min_free_mb": 4}`), 0o600); err != nil {
		t.Fatal(err)
	}
	script := writeWideScript(t, wideSteps, 16<<10) // about 10 MB of values, stored twice (CAPTURE, RECORDINGS)
	var logs syncbuf.Buffer
	startDaemonProcessLogs(t, home, &logs, "--capture-script", script, "--capture-speed", "0", "--capture-patient", "--consent-prompt", "cli")

	// Leave the store 8 MB beyond its reserve: too little for the recording.
	free, err := store.FreeBytes(home)
	if err != nil {
		t.Fatal(err)
	}
	filler := filepath.Join(home, "filler")
	if err := os.WriteFile(filler, make([]byte, free-16<<20-8<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	first := recordAll(t, home)
	t.Logf("stop on a full disk: %s", first.out)
	if first.err == nil || !strings.Contains(first.out, "lost") && !strings.Contains(first.out, "disk holding the data dir is full") {
		t.Fatalf("record stop on a full disk: %v\n%s; want a non-zero exit saying the disk is full or counting lost steps\ndaemon log:\n%s", first.err, first.out, logs.String())
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	// A stop that found the disk full left the recording running, its
	// captured steps kept: with room again it finishes, counting the steps
	// that could not be captured.
	for deadline := time.Now().Add(time.Minute); strings.Contains(first.out, "cannot be stored yet"); {
		if time.Now().After(deadline) {
			t.Fatalf("record stop still finds the disk full a minute after space returned:\n%s\ndaemon log:\n%s", first.out, logs.String())
		}
		out, stderr, err := run(t, home, "record", "stop")
		first = stopResult{out + stderr, err}
	}
	if first.err == nil || !strings.Contains(first.out, "lost") {
		t.Fatalf("record stop after space returned: %v\n%s; want the steps the full disk refused counted lost", first.err, first.out)
	}
	t.Logf("first recording, stopped once space returned: %s", first.out)
	second := recordAll(t, home)
	if second.err != nil || !strings.Contains(second.out, fmt.Sprintf("%d steps", wideSteps)) || strings.Contains(second.out, "lost") {
		t.Fatalf("record stop after space returned: %v\n%s; want every step stored, without a restart\ndaemon log:\n%s", second.err, second.out, logs.String())
	}
}

const wideSteps = 600

type stopResult struct {
	out string
	err error
}

// recordAll records the daemon's whole script: it stops once the capture
// queue has taken every step (the stop waits for the store).
func recordAll(t *testing.T, home string) stopResult {
	t.Helper()
	out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,browser")
	if err != nil || regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out) == "" {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}
	waitHandled(t, home, wideSteps)
	out, stderr, err = run(t, home, "record", "stop")
	return stopResult{out + stderr, err}
}

// writeWideScript writes n fill steps whose values are size bytes each.
func writeWideScript(t *testing.T, n, size int) string {
	t.Helper()
	form := scriptedForm(t)
	fill := form.Steps[1]
	var lines bytes.Buffer
	for i := range n {
		s := fill
		s.Seq = uint64(i + 1)
		v := *s.Value
		v.Raw = strings.Repeat("w", size)
		s.Value = &v
		line, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(append(line, '\n'))
	}
	path := filepath.Join(t.TempDir(), "wide.jsonl")
	if err := os.WriteFile(path, lines.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// waitHandled waits until the running recording has handled n steps:
// written or counted lost. It fails when none comes for a minute.
func waitHandled(t *testing.T, home string, n uint64) {
	t.Helper()
	var last uint64
	progress := time.Now()
	for {
		st, err := client.QueryStatus(home)
		if err != nil {
			t.Fatalf("status: %v", err)
		}
		if st.Recording == nil {
			t.Fatal("status shows no recording running")
		}
		if got := st.Recording.Steps + st.Recording.Lost; got >= n {
			return
		} else if got > last {
			last, progress = got, time.Now()
		}
		if time.Since(progress) > time.Minute {
			t.Fatalf("the recording stopped at %d steps handled; want %d", last, n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
