package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/recorder"
)

// TestRedactStageSurvivesSIGKILL kills the daemon again and again while its
// redact stage is moving a flood of captured steps from CAPTURE to
// RECORDINGS, so some kills land between its two acks. In the end every step
// that reached CAPTURE is in RECORDINGS exactly once: CAPTURE is written in
// order, so the stored seqs must be 1..n with no gap and no repeat.
func TestRedactStageSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("crash rounds skipped in -short mode")
	}
	const steps, rounds = 3000, 10
	home := t.TempDir()
	script := filepath.Join(t.TempDir(), "flood.jsonl")
	var b strings.Builder
	for i := 1; i <= steps; i++ {
		fmt.Fprintf(&b, `{"seq":%d,"ts":%g,"actor":"human","action":"click","screenshot_ref":"","cursor":[%d,20],"active_app":"Acme","active_window":"Orders","enrichment":null,"value":null,"narration":null,"outcome":"ok","redacted":false}`+"\n", i, 1+float64(i)/1000, i%1280)
	}
	os.WriteFile(script, []byte(b.String()), 0o600)
	args := []string{"--capture-script", script, "--capture-speed", "0", "--consent-prompt", "cli"}

	logs := new(syncbuf.Buffer)
	d := startDaemonProcessLogs(t, home, logs, args...)
	out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor")
	if err != nil {
		t.Fatalf("record start: %v\n%s", err, stderr)
	}
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	for round := 1; round <= rounds; round++ {
		// A kill is only worth something while steps flow: on a busy
		// machine a fresh daemon may take longer to resume than the pause.
		if round > 1 {
			waitLogged(t, logs, "resumed a recording")
		}
		time.Sleep(time.Duration(20+rand.IntN(150)) * time.Millisecond)
		d.Process.Kill()
		d.Wait()
		logs = new(syncbuf.Buffer) // the last daemon's, for a failure
		d = startDaemonProcessLogs(t, home, logs, args...)
	}
	// A stop that reaches the last daemon before it resumes closes the
	// recording with what is stored, which could be nothing if every kill
	// came early; so stop once the flood is reaching the log again.
	waitLogged(t, logs, "resumed a recording")
	waitStored(t, home, events.RecordingSubject(id, events.RecStep))
	// Each start resumed the recording (the scripted source playing again);
	// stopping it waits until every captured step is through.
	if out, stderr, err := runWithin(t, home, 2*time.Minute, "record", "stop", id); err != nil {
		t.Fatalf("record stop after the crashes: %v\n%s%s\n%s\nthe last daemon's log:\n%s", err, out, stderr, redactState(t, home, id), logs.String())
	}
	ids := storedMsgIDs(t, home, events.RecordingSubject(id, events.RecStep))
	seen := map[string]int{}
	for _, m := range ids {
		seen[m]++
	}
	for m, n := range seen {
		if n > 1 {
			t.Errorf("%s stored %d times", m, n)
		}
	}
	for seq := 1; seq <= len(seen); seq++ {
		if seen[events.StepMsgID(id, uint64(seq))] != 1 {
			t.Fatalf("step %d missing while %d steps are stored: a captured step was lost", seq, len(seen))
		}
	}
	if len(seen) == 0 {
		t.Fatal("no step reached RECORDINGS")
	}
	t.Logf("%d crash rounds: %d steps stored (the %d-step flood replays at each resume), each once", rounds, len(seen), steps)
}

// redactState describes, for a failure, where the redact stage stands: the
// consumer's counts and floors, and the stream seqs of the steps of recID
// still in CAPTURE, so a step left behind shows whether it was never
// delivered (above Delivered), is waiting for an ack or a redelivery
// (between AckFloor and Delivered), or was acked yet kept (at or below
// AckFloor).
func redactState(t *testing.T, home, recID string) string {
	t.Helper()
	ctx, js := cliJetStream(t, home)
	var b strings.Builder
	if st, err := js.Stream(ctx, events.StreamCapture); err != nil {
		fmt.Fprintf(&b, "CAPTURE: %v\n", err)
	} else {
		s := st.CachedInfo().State
		fmt.Fprintf(&b, "CAPTURE: %d msgs, seqs %d..%d, %d deleted\n", s.Msgs, s.FirstSeq, s.LastSeq, s.NumDeleted)
	}
	if c, err := js.Consumer(ctx, events.StreamCapture, recorder.RedactConsumer); err != nil {
		fmt.Fprintf(&b, "consumer %s: %v\n", recorder.RedactConsumer, err)
	} else {
		i := c.CachedInfo()
		fmt.Fprintf(&b, "consumer %s: NumPending %d, NumAckPending %d, NumRedelivered %d, NumWaiting %d, Delivered consumer/stream %d/%d, AckFloor consumer/stream %d/%d, PushBound %v\n",
			i.Name, i.NumPending, i.NumAckPending, i.NumRedelivered, i.NumWaiting, i.Delivered.Consumer, i.Delivered.Stream, i.AckFloor.Consumer, i.AckFloor.Stream, i.PushBound)
	}
	var left []string
	forEachStored(t, home, events.StreamCapture, events.CaptureSubject(recID), func(m *jetstream.RawStreamMsg) {
		if len(left) < 20 {
			left = append(left, fmt.Sprintf("%d (%s)", m.Sequence, m.Header.Get(jetstream.MsgIDHeader)))
		}
	})
	fmt.Fprintf(&b, "steps still in CAPTURE, by stream seq (the first 20): %s", strings.Join(left, ", "))
	return b.String()
}

// waitLogged waits until the daemon writing to logs has logged want.
func waitLogged(t *testing.T, logs *syncbuf.Buffer, want string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for !strings.Contains(logs.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon never logged %q:\n%s", want, logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitStored waits until RECORDINGS holds a message on subject.
func waitStored(t *testing.T, home, subject string) {
	t.Helper()
	ctx, js := cliJetStream(t, home)
	for {
		st, err := js.Stream(ctx, events.StreamRecordings)
		if err == nil {
			if _, err = st.GetLastMsgForSubject(ctx, subject); err == nil {
				return
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("nothing reached %s: %v", subject, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// storedMsgIDs reads the dedupe ids of every message on subject, as the CLI.
func storedMsgIDs(t *testing.T, home, subject string) []string {
	t.Helper()
	var ids []string
	forEachStored(t, home, events.StreamRecordings, subject, func(m *jetstream.RawStreamMsg) {
		ids = append(ids, m.Header.Get(jetstream.MsgIDHeader))
	})
	return ids
}
