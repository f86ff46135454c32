package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
)

const (
	publisherEnv = "REPRISE_TEST_PUBLISHER"
	durableRun   = "run_durability"
)

// TestAckedStepsSurviveSIGKILL is the durability promise: a step JetStream
// acked is on disk exactly once, however the daemon dies. A publisher in
// another process publishes steps without pause while the daemon is killed
// with SIGKILL at a random moment and restarted, ten times.
func TestAckedStepsSurviveSIGKILL(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("durability rounds skipped in -short mode")
	}
	const rounds = 10
	home := t.TempDir()

	pub := exec.Command(os.Args[0], "-test.run=^$")
	pub.Env = append(os.Environ(), publisherEnv+"=1", daemon.HomeEnv+"="+home)
	stdin, _ := pub.StdinPipe()
	stdout, _ := pub.StdoutPipe()
	pub.Stderr = os.Stderr
	if err := pub.Start(); err != nil {
		t.Fatal(err)
	}
	defer pub.Process.Kill()
	acks := make(chan uint64, 1<<16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if seq, err := strconv.ParseUint(strings.TrimPrefix(sc.Text(), "acked "), 10, 64); err == nil {
				acks <- seq
			}
		}
		close(acks)
	}()

	acked := map[uint64]bool{}
	drain := func() {
		for {
			select {
			case seq := <-acks:
				acked[seq] = true
			default:
				return
			}
		}
	}
	for round := 1; round <= rounds; round++ {
		d := startDaemonProcess(t, home)
		before := len(acked)
		// Let some publishes land, then kill at a random moment.
		for len(acked) < before+20 {
			select {
			case seq := <-acks:
				acked[seq] = true
			case <-time.After(20 * time.Second):
				t.Fatalf("round %d: publisher acked nothing for 20 s", round)
			}
		}
		time.Sleep(time.Duration(rand.IntN(300)) * time.Millisecond)
		d.Process.Kill()
		d.Wait()
		drain()
		t.Logf("round %d: killed the daemon after %d acked steps in all", round, len(acked))
	}

	// Bring it back once more, let the publisher's in-flight retry land, stop it.
	startDaemonProcess(t, home)
	stdin.Close()
	for seq := range acks {
		acked[seq] = true
	}
	pub.Wait()

	counts := storedSteps(t, home)
	var lost, dup int
	for seq := range acked {
		if counts[seq] == 0 {
			lost++
		}
	}
	for seq, n := range counts {
		if n > 1 {
			dup++
			t.Errorf("step %d stored %d times", seq, n)
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d acked steps lost", lost, len(acked))
	}
	t.Logf("%d rounds: %d steps acked, %d stored, %d lost, %d duplicated", rounds, len(acked), len(counts), lost, dup)
}

// storedSteps reads every step of the durability run from REPLAY, as the CLI.
func storedSteps(t *testing.T, home string) map[uint64]int {
	t.Helper()
	counts := map[uint64]int{}
	forEachStored(t, home, events.StreamReplay, "run."+durableRun+".>", func(m *jetstream.RawStreamMsg) {
		s, err := events.DecodeStep(m.Data)
		if err != nil {
			t.Fatalf("stored step does not decode: %v", err)
		}
		counts[s.Seq]++
	})
	return counts
}

// forEachStored hands fn every message of stream on subject, in order, read
// as the local CLI: message by message through the stream's get API, the
// read-only way the CLI user has into any stream.
func forEachStored(t *testing.T, home, stream, subject string, fn func(*jetstream.RawStreamMsg)) {
	t.Helper()
	ctx, js := cliJetStream(t, home)
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	for seq := uint64(1); ; {
		m, err := s.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(m)
		seq = m.Sequence + 1
	}
}

// cliJetStream is JetStream as the CLI user reaches it, with a context
// that ends with the test (or in 2 minutes).
func cliJetStream(t *testing.T, home string) (context.Context, jetstream.JetStream) {
	t.Helper()
	nc, _, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx, js
}

// runPublisher is the publishing process: it publishes step after step as
// the CLI, prints each acked sequence, retries the same step (same dedupe
// id) through daemon restarts, and stops when its stdin closes.
func runPublisher() int {
	home := os.Getenv(daemon.HomeEnv)
	stop := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(stop) }()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var nc *nats.Conn
	var pub *events.Publisher
	subject := events.ReplaySubject(durableRun, 1, "step")
	for seq := uint64(1); ; {
		select {
		case <-stop:
			if nc != nil {
				nc.Close()
			}
			return 0
		default:
		}
		if nc == nil {
			c, _, err := client.Connect(home, nats.NoReconnect())
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			js, _ := jetstream.New(c)
			nc, pub = c, events.NewPublisher(js)
		}
		step := &events.Step{Seq: seq, TS: float64(time.Now().UnixNano()) / 1e9, Actor: events.ActorAgent,
			Action: events.ActionFill, Cursor: []int{10, 20}, Outcome: events.OutcomeOK,
			Value: &events.Value{Raw: fmt.Sprint("row value ", seq), Type: events.ValueText}}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_, err := pub.PublishStep(ctx, subject, durableRun, step)
		cancel()
		if err != nil {
			// The daemon died or is restarting: reconnect, then retry the
			// same step, whose dedupe id makes a second store impossible.
			nc.Close()
			nc = nil
			continue
		}
		fmt.Fprintf(w, "acked %d\n", seq)
		w.Flush()
		seq++
	}
}
