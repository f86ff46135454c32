package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/internal/e2e"
)

// replayRig is a daemon, the customer site, the skill file and a folder.
type replayRig struct {
	home, dir, skill string
	site             *customerSite
	daemon           *exec.Cmd
}

func newReplayRig(t *testing.T) *replayRig {
	t.Helper()
	if _, err := chromium.Find(); err != nil {
		t.Skipf("REPLAY TESTS SKIPPED: no Chromium on this machine (%v); scripts/deps installs it", err)
	}
	r := &replayRig{home: t.TempDir(), dir: t.TempDir(), site: newCustomerSite(t)}
	r.daemon = startDaemonProcess(t, r.home)
	tmpl, err := os.ReadFile(filepath.Join("testdata", "customer-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r.skill = r.write("customer-skill.yaml", r.site.skill(string(tmpl)))
	return r
}

func (r *replayRig) write(name, content string) string {
	p := filepath.Join(r.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		panic(err)
	}
	return p
}

// customers writes n rows of customers to a CSV; some notes carry commas,
// quotes and a line break, as spreadsheets write them.
func (r *replayRig) customers(name string, n int) (string, [][]string) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	countries := []string{"Canada", "France", "Germany", "Japan", "Brazil"}
	rows := [][]string{{"First Name", "Email", "Company", "Country", "Notes"}}
	for i := 1; i <= n; i++ {
		notes := fmt.Sprintf("Customer %d", i)
		switch i % 7 {
		case 3:
			notes = fmt.Sprintf(`Prefers "email", then phone (%d)`, i)
		case 5:
			notes = fmt.Sprintf("Line one %d\nline two", i)
		}
		rows = append(rows, []string{fmt.Sprintf("Name%d", i), fmt.Sprintf("c%d@example.org", i), fmt.Sprintf("Firm %d, Ltd", i), countries[i%5], notes})
	}
	_ = w.WriteAll(rows)
	return r.write(name, b.String()), rows[1:]
}

// replay runs `reprise replay` to its end.
func (r *replayRig) replay(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute) // 200 rows on a loaded 2-core machine
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"replay", r.skill}, args...)...)
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	return o.String(), e.String(), err
}

var runIDPattern = regexp.MustCompile(`run (run_[0-9A-Za-z_]+)`)

func TestReplayRefusesBadInputBeforeAnyRow(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	good, _ := r.customers("good.csv", 3)
	for _, tc := range []struct {
		name, csv, want string
		flags           []string
	}{
		{"missing column", "First Name,Email,Country,Notes\nA,a@example.org,Canada,x\n", "Company", nil},
		{"malformed line", "First Name,Email,Company,Country,Notes\nA,a@example.org,\"Firm,Canada,x\n", "line 2", nil},
		{"empty file", "", "empty", nil},
		{"bad email", "First Name,Email,Company,Country,Notes\nA,not-an-email,F,Canada,x\n", "every row is bad (1), nothing was run:\n  row 1 (line 2): parameter email", nil},
		{"a bad row, --on-error stop", "First Name,Email,Company,Country,Notes\nA,a@example.org,F,Canada,x\nB,not-an-email,F,Canada,x\n", "1 bad row(s), nothing was run", []string{"--on-error", "stop"}},
	} {
		_, stderr, err := r.replay(t, append([]string{"--rows", r.write(tc.name+".csv", tc.csv), "--yes"}, tc.flags...)...)
		if err == nil || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: %v\n%s; want an error naming %q", tc.name, err, stderr, tc.want)
		}
	}
	if _, stderr, err := r.replay(t, "--rows", good, "--yes"); err == nil || !strings.Contains(stderr, "dry run") {
		t.Errorf("--yes before any dry run: %v\n%s; want a refusal that says to dry-run first", err, stderr)
	}
	if n := r.site.postCount(); n != 0 {
		t.Fatalf("%d forms were submitted; want none", n)
	}
}

// TestReplayFillsEveryRowOnce: 200 rows, every row stored once with every
// field equal to the CSV; the rows the server refuses are reported failed
// with the page's message.
func TestReplayFillsEveryRowOnce(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	sample, _ := r.customers("sample.csv", 2)
	out, stderr, err := r.replay(t, "--rows", sample, "--dry-run")
	if err != nil || !strings.Contains(out, "0 committed") || r.site.postCount() != 0 {
		t.Fatalf("dry run: %v\n%s%s (posts %d)", err, out, stderr, r.site.postCount())
	}
	path, rows := r.customers("customers.csv", 200)
	// The site refuses two rows: one with a 409 (provably not filed:
	// failed), one only on the page (200: the row may have been filed as
	// far as reprise can tell, so unknown, never failed).
	r.site.refuse("c16@example.org")
	r.site.refuse("c111@example.org")
	report := filepath.Join(r.dir, "report.json")
	out, stderr, err = r.replay(t, "--rows", path, "--yes", "--on-error", "skip", "--report", report)
	if err == nil {
		t.Fatal("a run with refused rows exited 0")
	}
	if !strings.Contains(out, "198 committed, 1 failed, 0 skipped, 1 unknown") {
		t.Fatalf("replay: %v\n%s%s", err, out, stderr)
	}
	for i, row := range rows {
		n, got := r.site.count(row[1])
		if row[1] == "c16@example.org" || row[1] == "c111@example.org" {
			if n != 0 {
				t.Errorf("refused row %d stored %d times", i+1, n)
			}
			continue
		}
		if n != 1 {
			t.Errorf("row %d stored %d times; want once", i+1, n)
			continue
		}
		want := map[string]string{"first_name": row[0], "email": row[1], "company": row[2], "country": row[3], "notes": row[4]}
		for k, v := range want {
			if strings.ReplaceAll(got[k], "\r\n", "\n") != v {
				t.Errorf("row %d %s stored %q; want %q", i+1, k, got[k], v)
			}
		}
	}
	rep := e2e.ReadReport(t, report)
	if len(rep) != 200 {
		t.Fatalf("%d rows in the report; want 200", len(rep))
	}
	for n, want := range map[int]string{16: "failed", 111: "unknown"} {
		if row := rep[n-1]; row.Outcome != want || !strings.Contains(row.Reason, "Email already exists") {
			t.Errorf("report row %d = %+v; want %s with the page's message", n, row, want)
		}
	}
	// A second run of the same rows files nothing again: the filed rows
	// are skipped, the refused one is tried again (and refused again),
	// and the unknown one is not filed blindly.
	out, _, _ = r.replay(t, "--rows", path, "--yes", "--on-error", "skip")
	if !strings.Contains(out, "0 committed, 1 failed, 198 skipped, 1 unknown") {
		t.Errorf("second run: %s; want every filed row skipped, the unknown one left unknown", out)
	}
}

// TestReplayDaemonKilledMidRun: the daemon SIGKILLed while a replay runs;
// the replay stops within seconds and says how to resume, instead of
// hanging on a log nobody serves, and the resume files every row once.
func TestReplayDaemonKilledMidRun(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	sample, _ := r.customers("sample.csv", 1)
	if _, stderr, err := r.replay(t, "--rows", sample, "--dry-run"); err != nil {
		t.Fatalf("dry run: %v\n%s", err, stderr)
	}
	path, rows := r.customers("customers.csv", 30)
	cmd := exec.Command(binary, "replay", r.skill, "--rows", path, "--yes")
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	r.site.waitPosts(3, nil)
	_ = r.daemon.Process.Kill()
	_ = r.daemon.Wait()
	select {
	case err := <-exited:
		if err == nil {
			t.Fatalf("replay exited 0 with its daemon gone:\n%s%s", o.String(), e.String())
		}
	case <-time.After(2 * time.Minute): // a hang, not a speed bound: the grace is seconds
		_ = cmd.Process.Kill()
		t.Fatalf("replay still running 2 minutes after its daemon was killed:\n%s%s", o.String(), e.String())
	}
	m := runIDPattern.FindStringSubmatch(o.String())
	if m == nil || !strings.Contains(e.String(), "--resume "+m[1]) {
		t.Fatalf("the replay did not say how to resume:\n%s%s", o.String(), e.String())
	}
	r.daemon = startDaemonProcess(t, r.home)
	out, stderr, err := r.replay(t, "--rows", path, "--yes", "--resume", m[1])
	if err != nil || !strings.Contains(out, "30 committed") {
		t.Fatalf("resume after the daemon came back: %v\n%s%s", err, out, stderr)
	}
	for i, row := range rows {
		if n, _ := r.site.count(row[1]); n != 1 {
			t.Errorf("row %d stored %d times; want exactly once", i+1, n)
		}
	}
}

// TestReplayKillResume kills the replay process at random rows and
// resumes it: the server holds each row exactly once.
func TestReplayKillResume(t *testing.T) { killResume(t, 80, 10) }

// TestReplayParallelKillResume does the same with three rows filed at a
// time, each in its own tab: a kill leaves up to three rows in flight,
// each settled on the resume, none filed twice.
func TestReplayParallelKillResume(t *testing.T) { killResume(t, 60, 4, "--parallel", "3") }

// --parallel auto opens its tabs as they help, killed and resumed alike:
// each row stored once, and the run says what it settled on.
func TestReplayParallelAutoKillResume(t *testing.T) { killResume(t, 40, 2, "--parallel", "auto") }

func killResume(t *testing.T, n, rounds int, flags ...string) {
	t.Parallel()
	r := newReplayRig(t)
	sample, _ := r.customers("sample.csv", 1)
	if _, stderr, err := r.replay(t, "--rows", sample, "--dry-run"); err != nil {
		t.Fatalf("dry run: %v\n%s", err, stderr)
	}
	path, rows := r.customers("customers.csv", n)
	runID := ""
	for round := range rounds {
		args := append([]string{"replay", r.skill, "--rows", path, "--yes"}, flags...)
		if runID != "" {
			args = append(args, "--resume", runID)
		}
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The kill lands on observed progress, one to three rows into the
		// round, right as a row was posted: the moment a row is filed on
		// the site and perhaps not yet in the log. A cold browser under
		// -race takes seconds to post its first row; wall time would kill
		// before it, or after the last.
		exited := make(chan struct{})
		go func() { _ = cmd.Wait(); close(exited) }()
		r.site.waitPosts(r.site.postCount()+1+rand.IntN(3), exited)
		_ = cmd.Process.Kill()
		<-exited
		if runID == "" {
			m := runIDPattern.FindStringSubmatch(o.String())
			if m == nil {
				t.Fatalf("round %d printed no run id:\n%s%s", round, o.String(), e.String())
			}
			runID = m[1]
		}
	}
	before := r.site.postCount()
	if before == 0 || before >= len(rows) {
		t.Fatalf("%d rows were posted before the last resume; want the kills to land mid-run", before)
	}
	out, stderr, err := r.replay(t, append([]string{"--rows", path, "--yes", "--resume", runID}, flags...)...)
	if err != nil || !strings.Contains(out, fmt.Sprintf("%d committed", n)) {
		t.Fatalf("final resume: %v\n%s%s", err, out, stderr)
	}
	if slices.Contains(flags, "auto") && !strings.Contains(out, "--parallel auto: ") {
		t.Errorf("a run with --parallel auto did not say what it settled on:\n%s", out)
	}
	for i, row := range rows {
		if n, _ := r.site.count(row[1]); n != 1 {
			t.Errorf("row %d stored %d times; want exactly once", i+1, n)
		}
	}
}

// TestReplayResumeCommand: the command a run stopped early names is the
// one that started it, its flags kept, with --resume the run's id.
func TestReplayResumeCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rows", "data.csv"}, "reprise replay skill.yaml --rows data.csv --resume run_b"},
		{[]string{"--rows", "my data.csv", "--yes", "--parallel", "3", "--ignore-column", "Notes", "--ignore-column", "Id's", "--home", "/tmp/h", "--resume", "run_a", "--show=false"},
			`reprise replay skill.yaml --rows 'my data.csv' --home /tmp/h --ignore-column Notes --ignore-column 'Id'\''s' --parallel 3 --show=false --yes --resume run_b`},
	} {
		cmd, _, err := newRoot().Find([]string{"replay"})
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.ParseFlags(tc.args); err != nil {
			t.Fatal(err)
		}
		if got := resumeCommand(cmd, "skill.yaml", "run_b"); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

// TestReplayAutoStopsAndResumes: by default a run stops when three rows
// in a row fail, saying why and the command that resumes it; that
// command, the cause gone, files the rest. (replay's TestEngineAuto* test
// the rule itself.)
func TestReplayAutoStopsAndResumes(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	sample, _ := r.customers("sample.csv", 1)
	if _, stderr, err := r.replay(t, "--rows", sample, "--dry-run"); err != nil {
		t.Fatalf("dry run: %v\n%s", err, stderr)
	}
	path, rows := r.customers("customers.csv", 10)
	for _, n := range []int{4, 5, 6} {
		r.site.refuse(rows[n-1][1])
	}
	out, stderr, err := r.replay(t, "--rows", path, "--yes")
	if err == nil {
		t.Fatalf("a run with failed rows exited 0:\n%s", out)
	}
	if !strings.Contains(out, "3 committed, 2 failed, 4 skipped, 1 unknown") {
		t.Fatalf("replay: %v\n%s%s; want rows 1-3 filed, the run stopped after rows 4-6", err, out, stderr)
	}
	m := regexp.MustCompile(`stopped early: rows 4, 5 and 6 failed in a row at step \d+ \(submit[^)]*\) \(row 5 may have been filed: check it\): the failures look systematic \(--on-error auto\); fix the cause, then resume the run: (reprise replay .*)\n`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("the run did not say why it stopped and how to resume:\n%s", out)
	}
	resume := strings.Fields(m[1])
	if want := []string{"reprise", "replay", r.skill, "--rows", path, "--yes", "--resume"}; len(resume) != 8 || fmt.Sprint(resume[:7]) != fmt.Sprint(want) || !runIDPattern.MatchString("run "+resume[7]) {
		t.Fatalf("resume command %q; want %q and the run's id", m[1], want)
	}
	r.site.mu.Lock()
	clear(r.site.reject)
	r.site.mu.Unlock()
	cmd := exec.Command(binary, resume[1:]...)
	cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	o, err := cmd.Output()
	// Row 5 was refused only on the page: it stays unknown, for the
	// person; rows 4 and 6 were provably not filed: filed now.
	if err == nil || !strings.Contains(string(o), "9 committed, 0 failed, 0 skipped, 1 unknown") {
		t.Fatalf("resume: %v\n%s", err, o)
	}
	for i, row := range rows {
		want := 1
		if i+1 == 5 {
			want = 0
		}
		if n, _ := r.site.count(row[1]); n != want {
			t.Errorf("row %d stored %d times; want %d", i+1, n, want)
		}
	}
}
