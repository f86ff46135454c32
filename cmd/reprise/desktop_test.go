//go:build !windows

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
)

// formLoop is a desktop app that files customers: a GTK form that prints
// each one filed to a file and opens again, as a data-entry app does.
type formLoop struct {
	d      *xvfb.Desktop
	env    []string // the desktop's DISPLAY and session bus
	out    string
	ax     *atspi.Enricher
	appLog *syncbuf.Buffer
}

func startFormLoop(t *testing.T) *formLoop {
	t.Helper()
	d, env := privateDesktop(t)
	f := &formLoop{d: d, env: env, out: filepath.Join(t.TempDir(), "customers.txt")}
	app := exec.Command("sh", "-c", `while zenity --forms --title "New customer" --add-entry "First Name" --add-entry "Email" >>"$OUT"; do :; done`)
	app.Env = append(env, "OUT="+f.out)
	app.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its zenity goes with it
	f.appLog = &syncbuf.Buffer{}
	app.Stderr = f.appLog
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-app.Process.Pid, syscall.SIGKILL)
		_ = app.Wait()
	})
	ax, err := atspi.New(atspi.Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ax.Close() })
	f.ax = ax
	return f
}

// centre waits for the element and returns where a person would click it.
func (f *formLoop) centre(t *testing.T, role, label string) image.Point {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		els, err := f.ax.Find(ctx, "New customer", role, label)
		if err == nil && len(els) == 1 {
			return els[0].Bounds.Min.Add(els[0].Bounds.Max).Div(2)
		}
		if ctx.Err() != nil {
			t.Fatalf("no %s %q on the form: %v", role, label, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// fill is the person filing one customer with the mouse and keyboard.
func (f *formLoop) fill(t *testing.T, first, email string) {
	t.Helper()
	ctx := context.Background()
	for _, act := range []struct {
		role, label, text string
	}{{"textbox", "First Name", first}, {"textbox", "Email", email}, {"button", "OK", ""}} {
		p := f.centre(t, act.role, act.label)
		if err := f.d.Click(ctx, p.X, p.Y, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
		if act.text != "" {
			if _, err := f.d.Xdotool(ctx, "type", "--delay", "20", act.text); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func (f *formLoop) lines(t *testing.T, n int) []string {
	t.Helper()
	var lines []string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(f.out)
		lines = strings.Fields(strings.TrimSpace(string(b)))
		if len(lines) >= n {
			return lines
		}
	}
	t.Fatalf("the app filed %d customers; want %d: %q\napp said: %s", len(lines), n, lines, f.appLog.String())
	return nil
}

// TestDesktopRecordBuildReplay is the desktop floor end to end on Linux X11:
// a person files two customers in a GTK app, each one recorded (X11 RECORD,
// frames, AT-SPI); the recordings build a skill; the skill files five more
// from a CSV through the desktop executor, and the app holds them exactly.
func TestDesktopRecordBuildReplay(t *testing.T) {
	f := startFormLoop(t)
	home := t.TempDir()
	onDesktop(t, home, f.env)
	startDaemonProcess(t, home, "--consent-prompt", "cli")

	var recs []string
	for i, row := range [][2]string{{"Ada", "ada@example.org"}, {"Grace", "grace@example.org"}} {
		f.centre(t, "textbox", "First Name") // the form is up
		out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,desktop_ax")
		id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
		if err != nil || id == "" {
			t.Fatalf("record start: %v\n%s%s", err, out, stderr)
		}
		time.Sleep(500 * time.Millisecond)
		f.fill(t, row[0], row[1])
		f.lines(t, i+1)
		time.Sleep(700 * time.Millisecond) // a held single click is emitted after 400 ms
		out, stderr, err = run(t, home, "record", "stop")
		if err != nil || !strings.Contains(out, "ax ") {
			t.Fatalf("record stop: %v\n%s%s", err, out, stderr)
		}
		t.Logf("row %d: %s", i+1, strings.TrimSpace(out))
		if _, stderr, err := run(t, home, "recordings", "review", id); err != nil {
			t.Fatalf("review: %v\n%s", err, stderr)
		}
		recs = append(recs, id)
	}
	if out, _, _ := run(t, home, "recordings", "show", recs[0]); !strings.Contains(out, "First Name") || !strings.Contains(out, " ax ") {
		t.Errorf("the recording has no accessibility data for the form's fields:\n%s", out)
	}

	dir := t.TempDir()
	sample := filepath.Join(dir, "sample.csv")
	os.WriteFile(sample, []byte("First Name,Email\nAda,ada@example.org\nGrace,grace@example.org\n"), 0o600)
	out, stderr, err := run(t, home, "skill", "build", recs[0], recs[1], "--name", "desktop customer", "--rows", sample)
	if err != nil || !strings.Contains(out, "saved skill desktop-customer") {
		show, _, _ := run(t, home, "recordings", "show", recs[1])
		t.Fatalf("skill build: %v\n%s%s\nrecording:\n%s", err, out, stderr, show)
	}
	// Shown only when the test fails: what the build made of the two.
	t.Logf("skill build said:\n%s", out)
	for _, id := range recs {
		fetched, _, _ := run(t, home, "recordings", "fetch", id)
		var rec events.Recording
		_ = json.Unmarshal([]byte(fetched), &rec)
		for _, st := range rec.Steps {
			if e := st.Enrichment; e != nil {
				t.Logf("%s step %d: %s at %v: role %q label %q path %v", id, st.Seq, st.Action, st.Cursor, e.Role, e.Label, ptrString(e.AXPath))
			}
		}
	}

	rows := "First Name,Email\n"
	var want []string
	for i := 1; i <= 5; i++ {
		rows += fmt.Sprintf("Name%d,name%d@example.org\n", i, i)
		want = append(want, fmt.Sprintf("Name%d|name%d@example.org", i, i))
	}
	csvPath := filepath.Join(dir, "five.csv")
	os.WriteFile(csvPath, []byte(rows), 0o600)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "replay", "desktop-customer", "--rows", csvPath)
	cmd.Env = homeEnv(home)
	cmd.Stdin = strings.NewReader("y\n") // the first-run check of rows 1-2, if the skill submits
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, b)
	}
	t.Logf("replay said:\n%s", b)
	got := f.lines(t, 7)
	if strings.Join(got[2:], " ") != strings.Join(want, " ") {
		sk, _, _ := run(t, home, "skill", "show", "desktop-customer")
		show, _, _ := run(t, home, "recordings", "show", recs[0])
		t.Logf("skill:\n%s\nrecording:\n%s", sk, show)
		t.Fatalf("the app filed %q after the two demonstrated; want exactly %q\nreplay said:\n%s", got[2:], want, b)
	}
	// The replay held the desktop's grant: every input was authorized and
	// audited, by length only, and the grant was released at the end.
	audit, _, err := run(t, home, "audit", "tail", "-n", "200")
	if err != nil || !strings.Contains(audit, "computer.grant.created") || !strings.Contains(audit, "computer.action") || !strings.Contains(audit, "computer.grant.revoked") {
		t.Fatalf("audit of the replay's grant: %v\n%s", err, audit)
	}
	if strings.Contains(audit, "name3@example.org") || strings.Contains(audit, "Name3") {
		t.Fatalf("a row's value reached the audit log:\n%s", audit)
	}

	// The person presses Stop mid-run: the replay ends, the row in flight
	// is reported unknown, nothing more is filed, and for 30 s no replay
	// may take the desktop again, until the person grants it themselves.
	rows = "First Name,Email\n"
	for i := 1; i <= 40; i++ {
		rows += fmt.Sprintf("Late%d,late%d@example.org\n", i, i)
	}
	long := filepath.Join(dir, "long.csv")
	os.WriteFile(long, []byte(rows), 0o600)
	late := exec.CommandContext(ctx, binary, "replay", "desktop-customer", "--rows", long)
	late.Env = homeEnv(home)
	late.Stdin = strings.NewReader("y\n")
	var lateOut bytes.Buffer
	late.Stdout, late.Stderr = &lateOut, &lateOut
	if err := late.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- late.Wait() }()
	for n := 0; n < 9; { // two rows of the long run filed
		select {
		case err := <-exited:
			t.Fatalf("the long replay ended before Stop: %v\n%s", err, lateOut.String())
		case <-time.After(100 * time.Millisecond):
		}
		b, _ := os.ReadFile(f.out)
		n = len(strings.Fields(string(b)))
	}
	if out, stderr, err := run(t, home, "stop"); err != nil || !strings.Contains(out, "revoked") {
		t.Fatalf("stop: %v\n%s%s", err, out, stderr)
	}
	if err := <-exited; err == nil {
		t.Fatalf("the replay went on after Stop:\n%s", lateOut.String())
	}
	filed := len(f.lines(t, 9))
	if filed >= 7+40 || !strings.Contains(lateOut.String(), "COMPUTER_") {
		t.Fatalf("after Stop the app holds %d customers; want the long run cut short by the grant\n%s", filed, lateOut.String())
	}
	if !strings.Contains(lateOut.String(), "unknown") {
		t.Errorf("the row in flight at Stop is not reported unknown:\n%s", lateOut.String())
	}
	runID := regexp.MustCompile(`run (run_\w+):`).FindStringSubmatch(lateOut.String())
	if runID == nil {
		t.Fatalf("no run id in:\n%s", lateOut.String())
	}
	if _, stderr, err := run(t, home, "replay", "desktop-customer", "--rows", long, "--resume", runID[1]); err == nil || !strings.Contains(stderr, "COMPUTER_STOPPED_BY_USER") {
		t.Errorf("a replay within Stop's cooldown: %v\n%s", err, stderr)
	}
	if len(f.lines(t, filed)) != filed {
		t.Errorf("something was filed after Stop")
	}
}

func ptrString(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
