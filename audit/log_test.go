package audit

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

func openLog(tb testing.TB, js jetstream.JetStream, key []byte) *Log {
	tb.Helper()
	l, err := Open(testCtx(tb), js, key)
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

func appendN(tb testing.TB, l *Log, n int) {
	tb.Helper()
	for i := range n {
		kind, fields := sampleEntry(i)
		if err := l.Append(testCtx(tb), kind, fields); err != nil {
			tb.Fatalf("Append(%s) = %v", kind, err)
		}
	}
}

func verifyOK(tb testing.TB, js jetstream.JetStream, cp Checkpoint, wantMsgs uint64) Report {
	tb.Helper()
	r, err := Verify(testCtx(tb), js, testKey, cp)
	if err != nil {
		tb.Fatal(err)
	}
	if !r.OK || r.Messages != wantMsgs {
		tb.Fatalf("Verify = ok %v, %d messages, problems %v; want ok with %d", r.OK, r.Messages, r.Problems, wantMsgs)
	}
	return r
}

func TestLogAppendAndVerify(t *testing.T) {
	_, _, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 8)
	r := verifyOK(t, js, l.Head(), 8)
	if h := l.Head(); r.Head.Seq != 8 || h.Seq != 8 || string(r.Head.MAC) != string(h.MAC) {
		t.Errorf("Verify head = %d, Log head = %d; want both 8 with the same MAC", r.Head.Seq, h.Seq)
	}
	raw, err := mustStream(t, js).GetMsg(testCtx(t), 3)
	if err != nil {
		t.Fatal(err)
	}
	if got := raw.Header.Get(jetstream.MsgIDHeader); got != "audit:3" {
		t.Errorf("Nats-Msg-Id of entry 3 = %q; want audit:3", got)
	}
	if want := events.AuditSubject(KindReplayRow); raw.Subject != want {
		t.Errorf("subject of entry 3 = %q; want %q", raw.Subject, want)
	}
}

func TestAppendRefusesContent(t *testing.T) {
	_, _, js := startJS(t)
	l := openLog(t, js, testKey)
	err := l.Append(testCtx(t), KindRecordingStopped, map[string]string{FieldRecordingID: "rec_1", "typed_text": "hunter2"})
	if !errors.Is(err, ErrFieldNotAllowed) || !strings.Contains(err.Error(), `"typed_text"`) {
		t.Fatalf("Append with typed_text = %v; want ErrFieldNotAllowed naming it", err)
	}
	if err := l.Append(testCtx(t), "keystroke", nil); !errors.Is(err, ErrUnknownKind) {
		t.Fatalf("Append(keystroke) = %v; want ErrUnknownKind", err)
	}
	if info, _ := mustStream(t, js).Info(testCtx(t)); info.State.Msgs != 0 {
		t.Errorf("AUDIT holds %d messages after refused appends; want 0", info.State.Msgs)
	}
}

// A daemon restart opens the stream again and continues the same chain.
func TestOpenContinuesChain(t *testing.T) {
	_, _, js := startJS(t)
	appendN(t, openLog(t, js, testKey), 3)
	l := openLog(t, js, testKey)
	if h := l.Head(); h.Seq != 3 {
		t.Fatalf("Open after 3 entries: head %d; want 3", h.Seq)
	}
	appendN(t, l, 2)
	verifyOK(t, js, l.Head(), 5)
}

// A forgery at the end of the stream is skipped by Open, not vouched for,
// and Verify names it.
func TestOpenSkipsForgedTail(t *testing.T) {
	_, _, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 3)
	forgedAt := publishRaw(t, js, forge(t, 4, l.Head().MAC))
	l = openLog(t, js, testKey)
	if h := l.Head(); h.Seq != 3 {
		t.Fatalf("Open over a forged tail: head %d; want 3", h.Seq)
	}
	appendN(t, l, 1)
	r, err := Verify(testCtx(t), js, testKey, l.Head())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := wheres(r.Problems), []where{{ProblemForged, forgedAt, 4}}; !slices.Equal(got, want) {
		t.Fatalf("Verify = %v; want %v", got, want)
	}
}

func TestOpenWrongKey(t *testing.T) {
	_, _, js := startJS(t)
	appendN(t, openLog(t, js, testKey), 2)
	if _, err := Open(testCtx(t), js, otherKey); !errors.Is(err, ErrNoHead) {
		t.Fatalf("Open under another key = %v; want ErrNoHead", err)
	}
	if _, err := Open(testCtx(t), js, []byte("short")); err == nil {
		t.Fatal("Open with a 5-byte key = nil; want an error")
	}
}

// Two writers cannot fork the chain: the stale one gets ErrConflict, then
// continues from the real head.
func TestAppendConflict(t *testing.T) {
	_, _, js := startJS(t)
	a, b := openLog(t, js, testKey), openLog(t, js, testKey)
	appendN(t, a, 1)
	if err := b.Append(testCtx(t), KindSkillBuilt, nil); !errors.Is(err, ErrConflict) {
		t.Fatalf("Append by a stale Log = %v; want ErrConflict", err)
	}
	appendN(t, b, 1)
	verifyOK(t, js, b.Head(), 2)
}

func TestAppendConcurrent(t *testing.T) {
	_, _, js := startJS(t)
	l := openLog(t, js, testKey)
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				errs <- l.Append(testCtx(t), KindReplayRow, map[string]string{FieldRunID: "run_" + strconv.Itoa(w), FieldRow: strconv.Itoa(i)})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	verifyOK(t, js, l.Head(), writers*each)
}

// Tail works as the local CLI user, whose JetStream rights are read-only.
func TestTailAsCLI(t *testing.T) {
	s, _, js := startJS(t)
	l := openLog(t, js, testKey)
	appendN(t, l, 5)
	cjs, err := jetstream.New(connectCLI(t, s))
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	collect := func(m Message, e *Entry, err error) error {
		if err != nil {
			return err
		}
		got = append(got, e.Seq)
		return nil
	}
	if err := Tail(testCtx(t), cjs, 2, false, collect); err != nil {
		t.Fatal(err)
	}
	if want := []uint64{4, 5}; !slices.Equal(got, want) {
		t.Fatalf("Tail(-n 2) = %v; want %v", got, want)
	}

	got = nil
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	seen := make(chan uint64, 10)
	go func() {
		done <- Tail(ctx, cjs, 1, true, func(_ Message, e *Entry, err error) error {
			if err == nil {
				seen <- e.Seq
			}
			return err
		})
	}()
	for _, want := range []uint64{5, 6} {
		if want == 6 {
			appendN(t, l, 1)
		}
		select {
		case seq := <-seen:
			if seq != want {
				t.Fatalf("Tail -f delivered entry %d; want %d", seq, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Tail -f did not deliver entry %d", want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Tail -f after cancel = %v; want nil", err)
	}
}

func mustStream(tb testing.TB, js jetstream.JetStream) jetstream.Stream {
	tb.Helper()
	s, err := js.Stream(testCtx(tb), events.StreamAudit)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
