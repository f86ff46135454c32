package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/chromium"
)

// startReviewPage runs `reprise review REC --no-open` (killed when the test
// ends, if it has not exited) and returns the link it printed.
func startReviewPage(t *testing.T, home, id string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(binary, "review", id, "--no-open")
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if u, ok := strings.CutPrefix(strings.TrimSpace(lines.Text()), "http://127.0.0.1:"); ok {
			return "http://127.0.0.1:" + u, cmd
		}
	}
	t.Fatal("reprise review printed no link")
	return "", nil
}

// TestReviewPageAgainstTheDaemon is `reprise review` for real: the page the
// command serves, in headless Chromium, removes step 2 and redacts step 3
// of a recording through the daemon, and RECORDING_FETCH shows both.
func TestReviewPageAgainstTheDaemon(t *testing.T) {
	t.Parallel()
	if _, err := chromium.Find(); err != nil {
		t.Skipf("REVIEW PAGE TEST SKIPPED: no Chromium (%v); scripts/deps installs it", err)
	}
	home := t.TempDir()
	script, _ := filepath.Abs(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	startDaemonProcess(t, home, "--capture-script", script, "--capture-speed", "0", "--consent-prompt", "cli")
	out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,browser")
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if err != nil || id == "" {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}
	if _, stderr, err := run(t, home, "record", "stop"); err != nil {
		t.Fatalf("record stop: %v\n%s", err, stderr)
	}

	url, cmd := startReviewPage(t, home, id)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	actx, acancel := remote.NewAllocator(ctx, br.DevTools)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	err = chromedp.Do(bctx,
		chromedp.Navigate(url),
		chromedp.WaitVisible("#apply"),
		chromedp.Click("#remove-2"),
		chromedp.Click("#redact-3"),
		chromedp.Click("#apply"),
	)
	if err != nil {
		t.Fatalf("the review page: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("reprise review exited with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("reprise review did not end after the apply")
	}

	out, _, err = run(t, home, "recordings", "fetch", id, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := events.DecodeRecordingJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rec.Steps {
		if s.Seq == 2 {
			t.Error("step 2 is still in the recording after its removal")
		}
		if s.Seq == 3 && (s.Value == nil || s.Value.Raw != "") {
			t.Errorf("step 3's value %+v was not redacted", s.Value)
		}
	}
	if _, stderr, _ := run(t, home, "skill", "build", id, "--name", "x"); strings.Contains(stderr, "REVIEW_REQUIRED") {
		t.Errorf("the page's review does not count for skill build: %s", stderr)
	}
}
