package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/reprise-dev/reprise/daemon"
)

// TestCopilotThroughATerminal is the co-pilot as a person uses it, in a
// pseudo-terminal: it tells the steps as they are recorded, asks what
// changes per row when the recording stops, keeps the answers on the
// recording, and a skill builds from that one row plus those answers.
func TestCopilotThroughATerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	script, _ := filepath.Abs(filepath.Join("..", "..", "capture", "scripted", "testdata", "form.json"))
	startDaemonProcess(t, home, "--capture-script", script, "--capture-speed", "1", "--consent-prompt", "cli")
	sample := filepath.Join(t.TempDir(), "customers.csv")
	if err := os.WriteFile(sample, []byte("First Name,Last Name,Email,Country\nJo,Bloggs,jo@example.org,Canada\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := run(t, home, "record", "start", "--yes", "--mode", "copilot", "--channels", "floor,browser")
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if err != nil || id == "" {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}

	cmd := exec.Command(binary, "copilot", "--rows", sample)
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home)
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 256)
	go func() {
		r := bufio.NewReader(tty)
		var cur strings.Builder
		for {
			b, err := r.ReadByte()
			if err != nil {
				close(lines)
				return
			}
			cur.WriteByte(b)
			// A prompt ends without a newline: hand it over at its "] ".
			if b == '\n' || strings.HasSuffix(cur.String(), "] ") {
				lines <- cur.String()
				cur.Reset()
			}
		}
	}()
	var screen strings.Builder
	expect := func(what string) string {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("copilot ended before %q:\n%s", what, screen.String())
				}
				screen.WriteString(l)
				if strings.Contains(l, what) {
					return l
				}
			case <-deadline:
				t.Fatalf("no %q from copilot in 30 s:\n%s", what, screen.String())
			}
		}
	}
	expect("Filled First Name with Maria") // told live, as recorded
	expect("Chose Canada in Country")
	if out, stderr, err := run(t, home, "record", "stop"); err != nil {
		t.Fatalf("record stop: %v\n%s%s", err, out, stderr)
	}
	expect("stopped")
	// Every value but the country changes per row; the country is asked
	// and answered as the same for every row, and then its column.
	for {
		l := expect(" ")
		if strings.Contains(l, "answers recorded on "+id) {
			break
		}
		switch {
		case strings.Contains(l, "change on every run") && strings.Contains(l, "Country"):
			tty.WriteString("n\n")
		case strings.Contains(l, "change on every run"):
			tty.WriteString("y\n")
		case strings.Contains(l, "Which column"):
			tty.WriteString("\n") // the column offered
		case strings.Contains(l, "[column:Country] "):
			// The country is the same for every row, so the CSV's
			// Country column is the person's own: said, not assumed.
			tty.WriteString("ignore\n")
		}
	}

	if _, stderr, err := run(t, home, "recordings", "review", id); err != nil {
		t.Fatalf("review: %v\n%s", err, stderr)
	}
	out, stderr, err = run(t, home, "skill", "build", id, "--name", "New customer", "--rows", sample)
	if err != nil || !strings.Contains(out, "saved skill new-customer") {
		t.Fatalf("skill build from one row and the co-pilot's answers: %v\n%s%s\nco-pilot:\n%s", err, out, stderr, screen.String())
	}
	if out, _, _ := run(t, home, "skill", "show", "new-customer"); !strings.Contains(out, "column: Email") || strings.Contains(out, `column "Country", `) || !strings.Contains(out, `# column "Country": ignored`) {
		t.Errorf("the skill does not follow the answers:\n%s", out)
	}
}
