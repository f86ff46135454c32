package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/internal/syncbuf"
)

// recordScripted records the scripted form once and returns its id.
func recordScripted(t *testing.T, home string) string {
	t.Helper()
	out, stderr, err := run(t, home, "record", "start", "--yes", "--mode", "demonstration", "--channels", "floor,browser")
	if err != nil {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if out, stderr, err := run(t, home, "record", "stop"); err != nil {
		t.Fatalf("record stop: %v\n%s%s", err, out, stderr)
	}
	return id
}

// TestDamagedStoreIsReported: a block of the recordings' store changed on
// disk while the daemon was down: the daemon says so at start, status and
// doctor name the damaged recording, and fetching it says it is damaged,
// while an undamaged recording still fetches.
func TestDamagedStoreIsReported(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	script, _ := filepath.Abs(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	args := []string{"--capture-script", script, "--capture-speed", "0"}
	d := startDaemonProcess(t, home, args...)
	first := recordScripted(t, home)
	_ = d.Process.Signal(os.Interrupt)
	_ = d.Wait()

	blocks, _ := filepath.Glob(filepath.Join(home, "jetstream", "*", "*", "streams", "RECORDINGS", "msgs", "*.blk"))
	if len(blocks) == 0 {
		t.Fatal("no RECORDINGS block on disk")
	}
	b, err := os.ReadFile(blocks[0])
	if err != nil {
		t.Fatal(err)
	}
	// Flip bytes in the middle of the block: inside some step's sealed data.
	for i := len(b) / 2; i < len(b)/2+8; i++ {
		b[i] ^= 0xff
	}
	if err := os.WriteFile(blocks[0], b, 0o600); err != nil {
		t.Fatal(err)
	}
	var logs syncbuf.Buffer
	startDaemonProcessLogs(t, home, &logs, args...)
	st := waitStoreChecked(t, home, &logs)
	if len(st.Damaged) != 1 || st.Damaged[0].RecordingID != first {
		t.Fatalf("status after the start-up check: damaged %+v; want %s", st.Damaged, first)
	}
	if out, _, err := run(t, home, "status"); err != nil || !regexp.MustCompile(`damaged +`+first).MatchString(out) {
		t.Errorf("status: %v\n%s; want the damaged recording named", err, out)
	}
	if out, _, _ := run(t, home, "doctor"); !regexp.MustCompile(`no +store +damaged: ` + first).MatchString(out) {
		t.Errorf("doctor:\n%s; want the store check failed, naming %s", out, first)
	}
	_, stderr, err := run(t, home, "recordings", "fetch", first)
	if err == nil || !strings.Contains(stderr, "is damaged in the store") || strings.Contains(stderr, "retry with the same id") {
		t.Errorf("fetch of the damaged recording: %v\n%s; want it called damaged, not retryable", err, stderr)
	}
	second := recordScripted(t, home)
	if out, stderr, err := run(t, home, "recordings", "fetch", second); err != nil {
		t.Errorf("fetch of a recording made after the damage: %v\n%s%s", err, out, stderr)
	}
}

// waitStoreChecked waits for the daemon's start-up check of the store.
func waitStoreChecked(t *testing.T, home string, logs *syncbuf.Buffer) api.Status {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := client.QueryStatus(home)
		if err == nil && st.StoreChecked {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the daemon did not finish checking its store in 20 s: %v\nits log:\n%s", err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestFullDiskRefusesToRecord: on a data dir whose disk is nearly full (a
// 20 MB tmpfs), a recording does not start, nothing is lost, and status
// and doctor say why.
func TestFullDiskRefusesToRecord(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=20m,mode=0700", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("FULL-DISK TEST SKIPPED: cannot mount a small tmpfs here (%v: %s); it needs root or CAP_SYS_ADMIN", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", home).Run() })
	script, _ := filepath.Abs(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	startDaemonProcess(t, home, "--capture-script", script, "--capture-speed", "0")
	out, stderr, err := run(t, home, "record", "start", "--yes", "--mode", "demonstration", "--channels", "floor,browser")
	if err == nil || !strings.Contains(stderr, "MB free, under the 64 MB a recording needs") {
		t.Fatalf("record start on a 20 MB disk: %v\n%s%s; want refused, naming the free space", err, out, stderr)
	}
	if out, _, err := run(t, home, "status"); err != nil || !strings.Contains(out, "recordings will not start") {
		t.Errorf("status: %v\n%s; want the disk's state", err, out)
	}
	if out, _, _ := run(t, home, "doctor"); !regexp.MustCompile(`no +store +the disk`).MatchString(out) {
		t.Errorf("doctor:\n%s; want the store check failed for the disk", out)
	}
}
