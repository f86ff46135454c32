package events

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// TestForwarder moves messages from CAPTURE to RECORDINGS: each source
// message is acked only once its copy is stored, and Forward after Close is
// an error, not a panic.
func TestForwarder(t *testing.T) {
	_, js := ensured(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const n = 200
	rec := "rec_fwd"
	for i := 1; i <= n; i++ {
		if _, err := js.Publish(ctx, CaptureSubject(rec), []byte(fmt.Sprint(i)), jetstream.WithMsgID(StepMsgID(rec, uint64(i)))); err != nil {
			t.Fatal(err)
		}
	}
	cons, err := js.CreateOrUpdateConsumer(ctx, StreamCapture, jetstream.ConsumerConfig{Durable: "fwd", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	fw := NewForwarder(js, nil)
	afters := 0
	cc, err := cons.Consume(func(m jetstream.Msg) {
		if err := fw.Forward(m, RecordingSubject(rec, RecStep), m.Headers().Get(jetstream.MsgIDHeader), m.Data(), func() { afters++ }); err != nil {
			t.Errorf("Forward: %v", err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	capture, _ := js.Stream(ctx, StreamCapture)
	for {
		info, _ := capture.Info(ctx)
		if info.State.Msgs == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("CAPTURE still holds %d messages", info.State.Msgs)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cc.Stop()
	fw.Close()
	fw.Close()
	recs, _ := js.Stream(ctx, StreamRecordings)
	if info, _ := recs.Info(ctx); info.State.Msgs != n || afters != n {
		t.Fatalf("RECORDINGS holds %d, after ran %d times; want %d each", info.State.Msgs, afters, n)
	}
	if err := fw.Forward(nil, "x", "y", nil, nil); !errors.Is(err, ErrForwarderClosed) {
		t.Fatalf("Forward after Close = %v; want ErrForwarderClosed", err)
	}
}
