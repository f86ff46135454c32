package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/recorder"
)

// natsCLI finds the pinned nats CLI that scripts/deps installs.
func natsCLI(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("REPRISE_NATS_CLI"), filepath.Join("..", "..", ".tools", "bin", "nats")} {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			if _, err := os.Stat(abs); err == nil {
				return abs
			}
		}
	}
	if p, err := exec.LookPath("nats"); err == nil {
		return p
	}
	t.Fatal("the nats CLI is missing: run scripts/deps (make test does) to install the pinned natscli")
	return ""
}

// natsCLIAuth are the nats CLI's flags to connect as the local CLI user:
// its credentials, and an inbox of its own, claimed in the connection name,
// as every CLI connection must.
func natsCLIAuth(ci api.ClientInfo) []string {
	inbox := embedded.NewCLIInbox()
	// --password=: a random secret may start with '-', which would
	// otherwise read as the next flag.
	return []string{"--server", ci.URL, "--user", ci.User, "--password=" + ci.Password, "--timeout", "2s",
		"--inbox-prefix", inbox, "--connection-name", embedded.CLINamePrefix + inbox}
}

// natsAgainstDaemon starts a daemon and returns the CLI user's connection
// to it and a runner of the real nats CLI with that user's credentials.
func natsAgainstDaemon(ctx context.Context, t *testing.T) (*nats.Conn, func(args ...string) (string, error)) {
	t.Helper()
	natsBin := natsCLI(t)
	home := t.TempDir()
	startDaemonProcess(t, home)
	nc, ci, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc, func(args ...string) (string, error) {
		out, err := exec.CommandContext(ctx, natsBin, append(natsCLIAuth(ci), args...)...).CombinedOutput()
		return string(out), err
	}
}

// TestNatsCLIReadsTheDaemonsStreams is the interop check: the real nats CLI,
// with the local CLI user's credentials, reads what reprise wrote, and is
// refused what that user may not do.
func TestNatsCLIReadsTheDaemonsStreams(t *testing.T) {
	t.Parallel()
	// A bound on a hang, not on speed: the nats CLI runs five times, and
	// under a busy suite 10 s for all of it ran out (CI).
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	nc, natsRun := natsAgainstDaemon(ctx, t)
	js, _ := jetstream.New(nc)
	pub := events.NewPublisher(js)
	for seq := uint64(1); seq <= 3; seq++ {
		step := &events.Step{Seq: seq, Actor: events.ActorAgent, Action: events.ActionClick, Cursor: []int{1, 1}, Outcome: events.OutcomeOK}
		if _, err := pub.PublishStep(ctx, events.ReplaySubject("run_interop", 1, "step"), "run_interop", step); err != nil {
			t.Fatal(err)
		}
	}

	out, err := natsRun("stream", "info", events.StreamReplay, "--json")
	if err != nil {
		t.Fatalf("nats stream info: %v\n%s", err, out)
	}
	var info struct {
		State struct {
			Messages uint64 `json:"messages"`
		} `json:"state"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil || info.State.Messages != 3 {
		t.Fatalf("nats stream info = %s (%v); want 3 messages", out, err)
	}

	out, err = natsRun("stream", "get", events.StreamReplay, "2", "--json")
	if err != nil {
		t.Fatalf("nats stream get: %v\n%s", err, out)
	}
	var msg struct {
		Subject string `json:"subject"`
		Data    string `json:"data"`
	}
	if err := json.Unmarshal([]byte(out), &msg); err != nil {
		t.Fatalf("nats stream get printed %s: %v", out, err)
	}
	raw, err := base64.StdEncoding.DecodeString(msg.Data)
	if err != nil {
		t.Fatal(err)
	}
	step, err := events.DecodeStep(raw)
	if err != nil || step.Seq != 2 || msg.Subject != "run.run_interop.row.1.step" {
		t.Fatalf("message 2 read by the nats CLI = %s %+v, %v; want step 2", msg.Subject, step, err)
	}

	out, err = natsRun("stream", "ls", "--names")
	for _, name := range []string{events.StreamCapture, events.StreamRecordings, events.StreamReplay, events.StreamAudit} {
		if err != nil || !strings.Contains(out, name) {
			t.Errorf("nats stream ls: %v; %s missing from\n%s", err, name, out)
		}
	}

	if out, err := natsRun("stream", "rm", events.StreamReplay, "-f"); err == nil {
		t.Fatalf("the CLI user removed a stream through the nats CLI:\n%s", out)
	}
	if s, err := js.Stream(ctx, events.StreamReplay); err != nil || s.CachedInfo().State.Msgs != 3 {
		t.Fatalf("REPLAY after the refused rm: %v", err)
	}
}

// TestNatsCLICannotTouchThePipeline: with the CLI user's credentials, the
// real nats CLI can neither remove, add nor pause a consumer on CAPTURE
// (a thief consumer there took every step of a recording, a pause stopped
// the pipeline across restarts), and the daemon's consumer is untouched.
func TestNatsCLICannotTouchThePipeline(t *testing.T) {
	t.Parallel()
	// A bound on a hang, as above: 30 s ran out once on a busy machine.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, natsRun := natsAgainstDaemon(ctx, t)
	for _, args := range [][]string{
		{"consumer", "rm", events.StreamCapture, recorder.RedactConsumer, "-f"},
		{"consumer", "add", events.StreamCapture, "thief", "--pull", "--ack", "explicit", "--defaults"},
		{"consumer", "pause", events.StreamCapture, recorder.RedactConsumer, time.Now().Add(time.Hour).Format(time.DateTime), "-f"},
		{"request", "$JS.API.CONSUMER.PAUSE.CAPTURE.redact", `{"pause_until":"2099-01-01T00:00:00Z"}`},
		{"consumer", "add", events.StreamRecordings, "reader", "--pull", "--ack", "none", "--defaults"},
	} {
		if out, err := natsRun(args...); err == nil && !strings.Contains(out, "Permissions Violation") {
			t.Errorf("nats %s: the CLI user was let through:\n%s", strings.Join(args, " "), out)
		}
	}
	out, err := natsRun("consumer", "info", events.StreamCapture, recorder.RedactConsumer, "--json")
	if err != nil {
		t.Fatalf("nats consumer info (read-only, allowed): %v\n%s", err, out)
	}
	var info struct {
		Name   string `json:"name"`
		Paused bool   `json:"paused"`
	}
	if err := json.Unmarshal([]byte(out), &info); err != nil || info.Name != recorder.RedactConsumer || info.Paused {
		t.Fatalf("the redact consumer after the refused calls: %s (%v); want it there and running", out, err)
	}
	if out, err := natsRun("consumer", "ls", events.StreamCapture, "--names"); err != nil || strings.TrimSpace(out) != recorder.RedactConsumer {
		t.Fatalf("CAPTURE's consumers: %v\n%s; want only %s", err, out, recorder.RedactConsumer)
	}
}
