package audit

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const scaleEntries = 100_000

// TestChain100k builds a chain of 100,000 entries, verifies it, and finds
// one entry changed in the middle, first over the messages in memory, then
// through the real AUDIT stream.
func TestChain100k(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 entries; skipped with -short")
	}
	start := time.Now()
	msgs, head := buildChain(t, scaleEntries, testKey)
	t.Logf("build %d entries: %v", scaleEntries, time.Since(start))

	start = time.Now()
	r, err := VerifyEntries(msgs, testKey, head)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("VerifyEntries %d entries: %v", scaleEntries, time.Since(start))
	if !r.OK || r.Head.Seq != scaleEntries {
		t.Fatalf("VerifyEntries(100k) = ok %v, head %d, %v; want OK at %d", r.OK, r.Head.Seq, r.Problems, scaleEntries)
	}

	const mid = scaleEntries / 2
	tampered := slices.Clone(msgs)
	editEntry(t, tampered, mid-1, func(e *Entry) { e.Time++ })
	start = time.Now()
	r, _ = VerifyEntries(tampered, testKey, head)
	t.Logf("VerifyEntries %d entries, one changed: %v", scaleEntries, time.Since(start))
	if got, want := wheres(r.Problems), []where{{ProblemModified, mid, mid}}; !slices.Equal(got, want) {
		t.Fatalf("VerifyEntries(100k, entry %d changed) = %v; want %v", mid, got, want)
	}

	_, _, js := startJS(t)
	start = time.Now()
	publishAll(t, js, msgs)
	t.Logf("publish %d entries to AUDIT (async): %v", scaleEntries, time.Since(start))
	start = time.Now()
	// A whole-stream read on a busy machine: bounded, but not by the 30 s
	// of one request.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, err = Verify(ctx, js, testKey, head)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Verify %d entries from the stream: %v", scaleEntries, time.Since(start))
	if !r.OK || r.Messages != scaleEntries {
		t.Fatalf("Verify(100k stream) = ok %v, %d messages, %v", r.OK, r.Messages, r.Problems)
	}

	start = time.Now()
	l, err := Open(ctx, js, testKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(testCtx(t), KindSkillBuilt, nil); err != nil {
		t.Fatal(err)
	}
	t.Logf("Open on 100k entries and one Append: %v", time.Since(start))
	if h := l.Head(); h.Seq != scaleEntries+1 {
		t.Fatalf("head after Open and Append = %d; want %d", h.Seq, scaleEntries+1)
	}
}

// publishAll stores msgs in the AUDIT stream in order, as Log would, but
// pipelined: the bulk path a test needs and the product does not.
func publishAll(tb testing.TB, js jetstream.JetStream, msgs []Message) {
	tb.Helper()
	drain := func() {
		select {
		case <-js.PublishAsyncComplete():
		case <-time.After(5 * time.Minute):
			tb.Fatal("async publishes did not complete in five minutes")
		}
	}
	for _, m := range msgs {
		_, err := js.PublishMsgAsync(&nats.Msg{Subject: m.Subject, Data: m.Data})
		if errors.Is(err, jetstream.ErrTooManyStalledMsgs) {
			// A busy machine's server fell behind the pipeline: let it
			// catch up, then send this one again.
			drain()
			_, err = js.PublishMsgAsync(&nats.Msg{Subject: m.Subject, Data: m.Data})
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	drain()
}

// BenchmarkAppend measures one synchronous Append on the embedded server.
func BenchmarkAppend(b *testing.B) {
	_, _, js := startJS(b)
	l := openLog(b, js, testKey)
	fields := map[string]string{FieldRunID: "run_1", FieldRow: "42", FieldOutcome: "committed"}
	for b.Loop() {
		if err := l.Append(testCtx(b), KindReplayRow, fields); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyEntries measures verification per entry.
func BenchmarkVerifyEntries(b *testing.B) {
	msgs, head := buildChain(b, 10_000, testKey)
	b.ResetTimer()
	for b.Loop() {
		if r, _ := VerifyEntries(msgs, testKey, head); !r.OK {
			b.Fatal(r.Problems)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/entry")
}
