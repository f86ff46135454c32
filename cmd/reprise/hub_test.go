//go:build !windows

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/internal/e2e"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay/hub"
)

// TestHubClusterFilesEachRowOnce: a hub of three real nats-server
// processes, three `reprise worker`s, 300 rows. The worker filing row 50
// is SIGKILLed once the site stored the row and before its browser saw
// the answer; one hub node is killed mid-run. The run completes from the
// rest, every row stored exactly once, row 50 settled by the skill's
// verification on the site.
func TestHubClusterFilesEachRowOnce(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	cluster := natstest.StartCluster(t, 3, "reprise", "s3cret-hub")
	// The hub's password is never on a command line: the replays read it
	// from a file, the workers from the environment.
	hubURL := cluster.URL()
	creds := filepath.Join(r.dir, "hub.credentials")
	if err := os.WriteFile(creds, []byte("reprise:s3cret-hub\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(r.dir, "hub.key")

	workers := make([]*exec.Cmd, 3)
	for i := range workers {
		home := t.TempDir()
		cmd := exec.Command(binary, "worker", "--hub", hubURL, "--hub-key", key, "--name", fmt.Sprint("w", i), "--log-level", "warn")
		cmd.Env = append(os.Environ(), daemon.HomeEnv+"="+home, hub.CredentialsEnv+"=reprise:s3cret-hub")
		var out bytes.Buffer
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
	sample, _ := r.customers("sample.csv", 2)
	dry := exec.Command(binary, "replay", r.skill, "--rows", sample, "--dry-run", "--hub", hubURL, "--hub-credentials", creds, "--hub-key", key)
	dry.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	var dryOut bytes.Buffer
	dry.Stdout, dry.Stderr = &dryOut, &dryOut
	if err := dry.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { _, err := os.Stat(key); return err == nil }, "the hub key")
	for _, w := range workers {
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
	}
	if err := dry.Wait(); err != nil || !strings.Contains(dryOut.String(), "0 committed") {
		t.Fatalf("dry run on the hub: %v\n%s", err, dryOut.String())
	}
	if n := r.site.postCount(); n != 0 {
		t.Fatalf("the dry run posted %d forms", n)
	}

	path, rows := r.customers("customers.csv", 300)
	// Row 50 is stored on the site, and its worker dies before its
	// browser sees the answer.
	arrived, release := r.site.hold("c50@example.org")
	defer release()
	report := filepath.Join(r.dir, "report.json")
	run := exec.Command(binary, "replay", r.skill, "--rows", path, "--yes", "--hub", hubURL, "--hub-credentials", creds, "--hub-key", key, "--report", report)
	run.Env = append(os.Environ(), daemon.HomeEnv+"="+r.home)
	var runOut bytes.Buffer
	run.Stdout, run.Stderr = &runOut, &runOut
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
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
	for i, row := range rows {
		if n, _ := r.site.count(row[1]); n != 1 {
			t.Errorf("row %d stored %d times; want exactly once", i+1, n)
		}
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
