package events

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

const testRec = "rec_6f1c2a9e"

// stepSeq is the SPEC step renumbered.
func stepSeq(t testing.TB, seq uint64) *Step {
	t.Helper()
	s := specStep(t)
	s.Seq = seq
	return s
}

func TestPublishStep(t *testing.T) {
	_, js := ensured(t)
	ctx := testContext(t)
	p := NewPublisher(js)
	s := stepSeq(t, 12)
	subject := RecordingSubject(testRec, RecStep)

	ack, err := p.PublishStep(ctx, subject, testRec, s)
	if err != nil {
		t.Fatalf("PublishStep = %v; want an ack", err)
	}
	if ack.Stream != StreamRecordings || ack.Duplicate {
		t.Fatalf("PublishStep ack = %+v; want a first store in %s", ack, StreamRecordings)
	}
	st, err := js.Stream(ctx, StreamRecordings)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := st.GetMsg(ctx, ack.Sequence)
	if err != nil {
		t.Fatalf("GetMsg(%d): %v", ack.Sequence, err)
	}
	if got, want := msg.Header.Get(jetstream.MsgIDHeader), testRec+":12"; got != want {
		t.Errorf("stored %s = %q; want %q", jetstream.MsgIDHeader, got, want)
	}
	if msg.Subject != subject {
		t.Errorf("stored subject = %q; want %q", msg.Subject, subject)
	}
	back, err := DecodeStep(msg.Data)
	if err != nil {
		t.Fatalf("DecodeStep(stored) = %v; want nil", err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("DecodeStep(stored) = %+v; want %+v", back, s)
	}

	again, err := p.PublishStep(ctx, subject, testRec, stepSeq(t, 12))
	if err != nil {
		t.Fatalf("second PublishStep = %v; want an ack", err)
	}
	if !again.Duplicate || again.Sequence != ack.Sequence {
		t.Errorf("second PublishStep ack = %+v; want Duplicate of sequence %d", again, ack.Sequence)
	}
	if n := streamMsgs(t, js, StreamRecordings); n != 1 {
		t.Errorf("RECORDINGS holds %d messages after a repeated publish; want 1", n)
	}
	if next, err := p.PublishStep(ctx, subject, testRec, stepSeq(t, 13)); err != nil || next.Duplicate {
		t.Errorf("PublishStep(seq 13) = %+v, %v; want a new message", next, err)
	}
}

func TestPublishStepNoStream(t *testing.T) {
	_, js := ensured(t)
	_, err := NewPublisher(js).PublishStep(testContext(t), "nowhere."+testRec, testRec, stepSeq(t, 4))
	if !errors.Is(err, jetstream.ErrNoStreamResponse) || !strings.Contains(err.Error(), "step 4 of "+testRec) {
		t.Errorf("PublishStep(no stream) = %v; want ErrNoStreamResponse naming step 4 of %s", err, testRec)
	}
}

func TestPublishStepAsync(t *testing.T) {
	_, js := ensured(t)
	p := NewPublisher(js)
	subject := CaptureSubject(testRec)
	var futures []jetstream.PubAckFuture
	for seq := uint64(1); seq <= 5; seq++ {
		f, err := p.PublishStepAsync(subject, testRec, stepSeq(t, seq))
		if err != nil {
			t.Fatalf("PublishStepAsync(seq %d) = %v", seq, err)
		}
		futures = append(futures, f)
	}
	dup, err := p.PublishStepAsync(subject, testRec, stepSeq(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range append(futures, dup) {
		select {
		case ack := <-f.Ok():
			if ack.Stream != StreamCapture {
				t.Errorf("future %d ack = %+v; want stream %s", i, ack, StreamCapture)
			}
			if i == len(futures) && !ack.Duplicate {
				t.Errorf("repeated seq 3 ack = %+v; want Duplicate", ack)
			}
		case err := <-f.Err():
			t.Fatalf("future %d: %v; want an ack", i, err)
		case <-time.After(5 * time.Second):
			t.Fatalf("future %d: no ack after 5s", i)
		}
	}
	if n := streamMsgs(t, js, StreamCapture); n != 5 {
		t.Errorf("CAPTURE holds %d messages; want 5", n)
	}
	st, _ := js.Stream(testContext(t), StreamCapture)
	msg, err := st.GetMsg(testContext(t), 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := msg.Header.Get(jetstream.MsgIDHeader); got != testRec+":5" {
		t.Errorf("fifth stored %s = %q; want %q", jetstream.MsgIDHeader, got, testRec+":5")
	}
}
