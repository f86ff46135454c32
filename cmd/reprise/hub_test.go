//go:build !windows

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/replay/hub"
)

// TestHubClusterFilesEachRowOnce: a hub of three real nats-server
// processes, three `reprise worker`s, 300 rows of a skill with a browser
// section: its profile logged in on each worker with `reprise browse`,
// one upload per row, allowed domains that keep out the page's image from
// another host, and an ask step on two rows that the person answers at
// the coordinator with `reprise runs answer`. The worker filing row 50 is
// SIGKILLed once the site stored the row and before its browser saw the
// answer; one hub node is killed mid-run. The run completes from the
// rest, every row stored exactly once and right, row 50 settled by the
// skill's verification on the site.
func TestHubClusterFilesEachRowOnce(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	tmpl, err := os.ReadFile(filepath.Join("testdata", "crm-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r.skill = r.write("crm-skill.yaml", r.site.skill(string(tmpl)))
	cluster := natstest.StartCluster(t, 3, "reprise", "s3cret-hub")
	// The hub's password is never on a command line: the replays read it
	// from a file, the workers from the environment.
	hubURL := cluster.URL()
	creds := filepath.Join(r.dir, "hub.credentials")
	if err := os.WriteFile(creds, []byte("reprise:s3cret-hub\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(r.dir, "hub.key")

	display := xvfb.Start(t)
	workers := make([]*exec.Cmd, 3)
	for i := range workers {
		home := t.TempDir()
		r.site.login(t, home, display.Env(), i+1)
		cmd := exec.Command(binary, "worker", "--hub", hubURL, "--hub-key", key, "--name", fmt.Sprint("w", i), "--profiles", "crm", "--log-level", "warn")
		cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home, hub.CredentialsEnv+"=reprise:s3cret-hub")
		var out syncbuf.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		workers[i] = cmd
		t.Cleanup(func() {
			if cmd.Process != nil {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				_ = cmd.Wait()
			}
			if t.Failed() {
				t.Logf("worker %d:\n%s", i, out.String())
			}
		})
	}
	// The first run makes the hub key the workers are given.
	sample, _ := crmContacts(t, r, "sample.csv", 2, nil)
	dry := exec.Command(binary, "replay", r.skill, "--rows", sample, "--dry-run", "--hub", hubURL, "--hub-credentials", creds, "--hub-key", key)
	dry.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	var dryOut syncbuf.Buffer
	dry.Stdout, dry.Stderr = &dryOut, &dryOut
	if err := dry.Start(); err != nil {
		t.Fatal(err)
	}
	dryDone := make(chan error, 1)
	go func() { dryDone <- dry.Wait() }()
	var dryErr error
	waitFor(t, func() bool {
		select {
		case dryErr = <-dryDone:
			t.Fatalf("the dry run on the hub ended before it made the hub key: %v\n%s", dryErr, dryOut.String())
		default:
		}
		_, err := os.Stat(key)
		return err == nil
	}, "the hub key")
	for _, w := range workers {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case dryErr = <-dryDone:
	case <-time.After(5 * time.Minute): // a hang, not a speed bound
		_ = dry.Process.Signal(syscall.SIGQUIT)
		dryErr = <-dryDone
		t.Fatalf("the dry run on the hub did not finish: %v\n%s", dryErr, dryOut.String())
	}
	if dryErr != nil || !strings.Contains(dryOut.String(), "0 committed") {
		t.Fatalf("dry run on the hub: %v\n%s", dryErr, dryOut.String())
	}
	if n := r.site.postCount(); n != 0 {
		t.Fatalf("the dry run posted %d forms", n)
	}

	review := map[int]bool{7: true, 150: true}
	path, rows := crmContacts(t, r, "contacts.csv", 300, review)
	// Row 50 is stored on the site, and its worker dies before its
	// browser sees the answer.
	arrived, release := r.site.hold("c50@example.org")
	defer release()
	report := filepath.Join(r.dir, "report.json")
	run := exec.Command(binary, "replay", r.skill, "--rows", path, "--yes", "--hub", hubURL, "--hub-credentials", creds, "--hub-key", key, "--report", report)
	run.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	var runOut syncbuf.Buffer
	run.Stdout = &runOut
	questions, err := run.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	// The person answers each question at the coordinator, from its
	// terminal's token.
	answered := make(chan string, len(review))
	go func() {
		var seen strings.Builder
		sc := bufio.NewScanner(questions)
		for sc.Scan() {
			fmt.Fprintln(&runOut, sc.Text())
			seen.WriteString(sc.Text() + "\n")
			m := crmAskLine.FindStringSubmatch(seen.String())
			if m == nil {
				continue
			}
			seen.Reset()
			answer := exec.Command(binary, "runs", "answer", m[3])
			answer.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
			answer.Stdin = strings.NewReader(m[4] + "\n" + approval(m[2]) + "\n")
			if out, err := answer.CombinedOutput(); err != nil || !strings.Contains(string(out), "answered row "+m[1]) {
				t.Errorf("answer row %s: %v\n%s", m[1], err, out)
			}
			answered <- m[1]
		}
	}()
	done := make(chan error, 1)
	go func() { done <- run.Wait() }()
	select {
	case <-arrived:
	case err := <-done:
		t.Fatalf("the run ended before row 50 was posted: %v\n%s", err, runOut.String())
	}
	for _, p := range append([]*exec.Cmd{run}, workers...) {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p.Process.Pid)); err == nil && strings.Contains(string(b), "s3cret-hub") {
			t.Errorf("the hub's password is on a command line every local user reads: %q", b)
		}
	}
	holder := claimHolder(t, cluster, 50)
	w, err := strconv.Atoi(strings.TrimPrefix(strings.Split(holder, "/")[0], "w"))
	if err != nil || w < 0 || w >= len(workers) {
		t.Fatalf("row 50's claim is held by %q", holder)
	}
	_ = workers[w].Process.Kill()
	_ = workers[w].Wait()
	release()
	r.site.waitPosts(120, nil)
	cluster.Kill(1)
	select {
	case err := <-done:
		if err != nil || !strings.Contains(runOut.String(), "300 committed") {
			t.Fatalf("the run on the hub: %v\n%s", err, runOut.String())
		}
	case <-time.After(15 * time.Minute): // a hang, not a speed bound
		// SIGQUIT: Go prints every goroutine's stack as it exits, which
		// says where the run hung.
		_ = run.Process.Signal(syscall.SIGQUIT)
		select {
		case <-done: // its output is whole only once it has exited
		case <-time.After(30 * time.Second):
			_ = run.Process.Kill()
			<-done
		}
		t.Fatalf("the run on the hub did not finish:\n%s", runOut.String())
	}
	if len(answered) != len(review) {
		t.Errorf("%d questions answered; want one for each row marked for review (%d)", len(answered), len(review))
	}
	for i, row := range rows {
		n, got := r.site.count(row[1])
		want := map[string]string{"first_name": row[0], "email": row[1], "document": fmt.Sprintf("doc-%d.txt:document %d", i+1, i+1), "approval": ""}
		if review[i+1] {
			want["approval"] = approval(row[1])
		}
		if n != 1 || !maps.Equal(got, want) {
			t.Errorf("row %d stored %d times, last as %q; want exactly once, as %q", i+1, n, got, want)
		}
	}
	r.site.mu.Lock()
	denied, beacons := r.site.denied, r.site.beacons
	r.site.mu.Unlock()
	if denied != 0 || beacons != 0 {
		t.Errorf("the site refused %d pages for want of a login, and the host the skill does not allow had %d requests; want none of either", denied, beacons)
	}
	rep := e2e.ReadReport(t, report)
	if len(rep) != 300 {
		t.Fatalf("%d rows in the report; want 300", len(rep))
	}
	if row := rep[49]; row.Outcome != "committed" || !strings.Contains(row.Reason, "verified") {
		t.Errorf("row 50, stored when its worker died, is %+v; want committed as verified on the site", row)
	}
	if strings.Contains(runOut.String(), "s3cret-hub") {
		t.Error("the replay printed the hub's password")
	}
}

var crmAskLine = regexp.MustCompile(`row (\d+), step \d+ asks: the approval code for (\S+)\n  answer with: reprise runs answer (run_\S+)   and type the token (\S+)`)

// approval is the code the person gives for email's row.
func approval(email string) string { return "AP-" + strings.TrimSuffix(email, "@example.org") }

// crmContacts writes n contacts to a CSV, each with a document of its own
// (doc-N.txt beside it), review marking the rows whose approval the
// person gives.
func crmContacts(t *testing.T, r *replayRig, name string, n int, review map[int]bool) (string, [][]string) {
	t.Helper()
	docs := filepath.Join(r.dir, strings.TrimSuffix(name, ".csv"))
	if err := os.MkdirAll(docs, 0o700); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	rows := [][]string{{"First Name", "Email", "Document", "Review"}}
	for i := 1; i <= n; i++ {
		doc := filepath.Join(docs, fmt.Sprintf("doc-%d.txt", i))
		if err := os.WriteFile(doc, []byte(fmt.Sprintf("document %d", i)), 0o600); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, []string{fmt.Sprintf("Name%d", i), fmt.Sprintf("c%d@example.org", i), doc, strconv.FormatBool(review[i])})
	}
	_ = w.WriteAll(rows)
	return r.write(name, b.String()), rows[1:]
}

// login logs a worker's profile "crm" in to the CRM as a person would:
// `reprise browse` opens a window on it at the login page; once the site
// gave the login (the site's logins reach n), Ctrl-C closes it, and the
// browser writes its profile.
func (s *customerSite) login(t *testing.T, home string, env []string, n int) {
	t.Helper()
	cmd := exec.Command(binary, "browse", "--profile", "crm", s.URL+"/crm/login")
	cmd.Env = append(append(os.Environ(), env...), daemon.HomeEnv+"="+home)
	var out syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.logins >= n }, "the login page")
	_ = cmd.Process.Signal(os.Interrupt)
	if err := cmd.Wait(); err != nil || !strings.Contains(out.String(), "profile crm: kept") {
		t.Fatalf("reprise browse: %v\n%s", err, out.String())
	}
}

// A hub URL with a password (or a token) on the command line is refused
// by replay and worker alike, before anything connects, with the way to
// give it instead; the password is not echoed.
func TestHubRefusesAPasswordInArgv(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, args := range [][]string{
		{"worker", "--hub", "nats://reprise:s3cret-hub@127.0.0.1:1"},
		{"worker", "--hub", "nats://127.0.0.1:2,nats://s3cret-hub@127.0.0.1:1"},
		{"replay", "some-skill", "--rows", "rows.csv", "--yes", "--hub", "nats://reprise:s3cret-hub@127.0.0.1:1"},
	} {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "--hub-credentials") || !strings.Contains(string(out), hub.CredentialsEnv) {
			t.Errorf("reprise %s: %v\n%s\nwant a refusal naming --hub-credentials and %s", args[0], err, out, hub.CredentialsEnv)
		}
		if strings.Contains(string(out), "s3cret-hub") {
			t.Errorf("reprise %s echoed the password:\n%s", args[0], out)
		}
	}
}

// claimHolder reads who holds the hub's claim on row n's record.
func claimHolder(t *testing.T, c *natstest.Cluster, n int) string {
	t.Helper()
	_, js := c.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	kv, err := js.KeyValue(ctx, hub.BucketClaims)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := kv.ListKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for k := range keys.Keys() {
		e, err := kv.Get(ctx, k)
		if err != nil {
			continue
		}
		var c struct {
			Row    int    `json:"row"`
			Holder string `json:"holder"`
		}
		if json.Unmarshal(e.Value(), &c) == nil && c.Row == n {
			return c.Holder
		}
	}
	t.Fatalf("no claim on row %d", n)
	return ""
}

// waitFor polls cond until it holds, for up to a minute.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after a minute", what)
		}
	}
}
