package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/internal/syncbuf"
)

const consumeAckWait = 300 * time.Millisecond

// nextCall waits for the handler's next step.
func nextCall(t *testing.T, calls <-chan *Step, what string) *Step {
	t.Helper()
	select {
	case s := <-calls:
		return s
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: handler not called after 5s", what)
		return nil
	}
}

func noCall(t *testing.T, calls <-chan *Step, what string) {
	t.Helper()
	select {
	case s := <-calls:
		t.Fatalf("%s: handler called with step %d; want no call", what, s.Seq)
	case <-time.After(2 * consumeAckWait):
	}
}

// TestConsumeSteps runs the redact consumer's loop on CAPTURE: valid steps
// arrive in order and are acked, a malformed one is terminated without
// reaching the handler, and a handler error brings the step back.
func TestConsumeSteps(t *testing.T) {
	_, js := ensured(t)
	ctx := testContext(t)
	c, err := js.CreateOrUpdateConsumer(ctx, StreamCapture, jetstream.ConsumerConfig{
		Durable:   "redact",
		AckPolicy: jetstream.AckExplicitPolicy,
		AckWait:   consumeAckWait,
	})
	if err != nil {
		t.Fatal(err)
	}
	p := NewPublisher(js)
	subject := CaptureSubject(testRec)
	bad := stepSeq(t, 99)
	bad.Value = &Value{Raw: planted + "-in-a-secret", Type: ValueSecret}
	badBytes, err := AppendMsgpack(nil, bad)
	if err != nil {
		t.Fatal(err)
	}
	for _, seq := range []uint64{1, 2, 0, 3, 4} {
		if seq == 0 {
			_, err = js.Publish(ctx, subject, badBytes)
		} else {
			_, err = p.PublishStep(ctx, subject, testRec, stepSeq(t, seq))
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	logs := &syncbuf.Buffer{}
	calls := make(chan *Step, 16)
	failedOnce := false
	cctx, stop := context.WithCancel(ctx)
	defer stop()
	cc, err := ConsumeSteps(cctx, c, slog.New(slog.NewTextHandler(logs, nil)),
		func(_ context.Context, s *Step, _ jetstream.Msg) error {
			calls <- s
			if s.Seq == 3 && !failedOnce {
				failedOnce = true
				return errors.New("sealing key unavailable")
			}
			return nil
		})
	if err != nil {
		t.Fatalf("ConsumeSteps = %v", err)
	}
	defer cc.Stop()

	var seqs []uint64
	for range 5 {
		s := nextCall(t, calls, "consume")
		if want := stepSeq(t, s.Seq); !reflect.DeepEqual(s, want) {
			t.Errorf("handler got %+v; want %+v", s, want)
		}
		seqs = append(seqs, s.Seq)
	}
	var first []uint64 // each step's first delivery
	times := map[uint64]int{}
	for _, seq := range seqs {
		if times[seq] == 0 {
			first = append(first, seq)
		}
		times[seq]++
	}
	if !slices.Equal(first, []uint64{1, 2, 3, 4}) || times[3] != 2 {
		t.Errorf("handler saw steps %v; want 1 2 3 4 in order, and 3 once more after its nak", seqs)
	}
	waitFor(t, "CAPTURE to drain", func() bool { return streamMsgs(t, js, StreamCapture) == 0 })
	noCall(t, calls, "after every step was acked or terminated")
	info, err := c.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.NumAckPending != 0 || info.NumPending != 0 {
		t.Errorf("consumer ack pending %d, pending %d; want 0, 0", info.NumAckPending, info.NumPending)
	}
	out := logs.String()
	if n := strings.Count(out, "dropping malformed step"); n != 1 {
		t.Errorf("malformed step logged %d times; want once (terminated, never redelivered):\n%s", n, out)
	}
	if n := strings.Count(out, "asking for redelivery"); n != 1 {
		t.Errorf("handler failure logged %d times; want once:\n%s", n, out)
	}
	if strings.Contains(out, planted) {
		t.Errorf("log repeats the malformed step's secret:\n%s", out)
	}

	stop()
	select {
	case <-cc.Closed():
	case <-time.After(5 * time.Second):
		t.Fatalf("consume context not closed 5s after its ctx ended")
	}
	if _, err := p.PublishStep(ctx, subject, testRec, stepSeq(t, 5)); err != nil {
		t.Fatal(err)
	}
	noCall(t, calls, "after ctx ended")
	if n := streamMsgs(t, js, StreamCapture); n != 1 {
		t.Errorf("CAPTURE holds %d messages after the consumer stopped; want the 1 unconsumed", n)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestReadAllLeavesNoConsumer: a fold's consumer goes with it. The server
// takes 1000 consumers a stream, and a daemon folds recordings often.
func TestReadAllLeavesNoConsumer(t *testing.T) {
	_, js := ensured(t)
	// 1100 folds: seconds alone, much longer under -race beside a busy
	// package; the bound is for a hang, not for speed.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stream, err := js.Stream(ctx, StreamRecordings)
	if err != nil {
		t.Fatal(err)
	}
	for range 1100 {
		if err := ReadAll(ctx, js, StreamRecordings, []string{"rec.*.started"}, func(jetstream.Msg) error { return nil }); err != nil {
			t.Fatalf("ReadAll: %v", err)
		}
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Consumers != 0 {
		t.Errorf("%d consumers left on %s after 1100 reads; want 0", info.State.Consumers, StreamRecordings)
	}
}

// TestReadAllEndsWhenItsStreamGoes: a read whose consumer cannot be made
// again (its stream deleted between two batches; on a hub, a node that
// died) ends with an error. The client library alone would try forever,
// and a coordinator waiting on the read would never see its run end.
func TestReadAllEndsWhenItsStreamGoes(t *testing.T) {
	t.Parallel()
	_, js := startJetStream(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a bound on a hang
	defer cancel()
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "GOES", Subjects: []string{"goes.>"}}); err != nil {
		t.Fatal(err)
	}
	for i := range 1001 { // more than one batch
		if _, err := js.Publish(ctx, fmt.Sprintf("goes.%d", i), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() {
		read := 0
		done <- ReadAll(ctx, js, "GOES", []string{"goes.>"}, func(jetstream.Msg) error {
			if read++; read == 1000 { // the first batch read whole
				return js.DeleteStream(ctx, "GOES")
			}
			return nil
		})
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("ReadAll of a stream deleted under it: nil error; want the read to fail")
		}
	case <-ctx.Done():
		t.Fatal("ReadAll of a stream deleted under it did not return")
	}
}
