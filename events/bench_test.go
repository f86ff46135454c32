package events

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The publish benchmarks compare raw and typed publishes on embedded servers
// with a file store under b.TempDir(), so the ratio of the two is the cost of
// the typed helper. The target is typed <= 1.10x
// raw. Raw publishes pre-encoded bytes under the same Nats-Msg-Id the typed
// helper would compute, so the only difference is the helper itself.

const benchRec = "rec_6f1c2a9e-4b3d-4c8e-9f70-2d5a1b8c3e47"

// benchStep is the SPEC's fill step and its msgpack encoding.
func benchStep(b *testing.B) (*Step, []byte) {
	b.Helper()
	s := specStep(b)
	data, err := AppendMsgpack(nil, s)
	if err != nil {
		b.Fatal(err)
	}
	return s, data
}

// percentile returns the q-th quantile of lat, in microseconds; lat is sorted.
func percentile(lat []time.Duration, q float64) float64 {
	return float64(lat[int(q*float64(len(lat)-1))].Nanoseconds()) / 1e3
}

// BenchmarkPublishSync alternates a raw and a typed publish of the same step
// on one server and one stream, so drift in the machine or the store (these
// machines are noisy, and a file store grows) falls on both equally. It
// reports each side's p50 and p99 latency.
func BenchmarkPublishSync(b *testing.B) {
	s, data := benchStep(b)
	subject := RecordingSubject(benchRec, RecStep)
	_, js := ensured(b)
	p := NewPublisher(js)
	ctx := context.Background()
	raw := make([]time.Duration, 0, 1<<16)
	typed := make([]time.Duration, 0, 1<<16)
	step := *s
	b.SetBytes(2 * int64(len(data)))
	for b.Loop() {
		step.Seq++
		start := time.Now()
		if _, err := js.Publish(ctx, subject, data, jetstream.WithMsgID(StepMsgID(benchRec, step.Seq))); err != nil {
			b.Fatal(err)
		}
		raw = append(raw, time.Since(start))
		step.Seq++
		start = time.Now()
		if _, err := p.PublishStep(ctx, subject, benchRec, &step); err != nil {
			b.Fatal(err)
		}
		typed = append(typed, time.Since(start))
	}
	slices.Sort(raw)
	slices.Sort(typed)
	b.ReportMetric(percentile(raw, 0.50), "raw-p50-us")
	b.ReportMetric(percentile(typed, 0.50), "typed-p50-us")
	b.ReportMetric(percentile(raw, 0.99), "raw-p99-us")
	b.ReportMetric(percentile(typed, 0.99), "typed-p99-us")
}

// asyncJetStream is a server and a JetStream context with the issue's
// in-flight window; it counts failed acks. jetstream.WithStallWait is a
// per-publish option, which PublishStepAsync does not take, so both sides
// publish without options and share the default stall wait (200ms); a
// publisher that stalls longer fails the benchmark instead of skewing it.
func asyncJetStream(b *testing.B) (jetstream.JetStream, *atomic.Int64) {
	b.Helper()
	var failed atomic.Int64
	_, js := ensured(b,
		jetstream.WithPublishAsyncMaxPending(4096),
		jetstream.WithPublishAsyncErrHandler(func(jetstream.JetStream, *nats.Msg, error) { failed.Add(1) }),
	)
	return js, &failed
}

// drain waits for every async ack and reports the throughput of n messages
// since start, the drain included.
func drain(b *testing.B, js jetstream.JetStream, failed *atomic.Int64, n int, start time.Time) {
	b.Helper()
	select {
	case <-js.PublishAsyncComplete():
	case <-time.After(30 * time.Second):
		b.Fatalf("%d async publishes still pending after 30s", js.PublishAsyncPending())
	}
	if f := failed.Load(); f != 0 {
		b.Fatalf("%d of %d async publishes failed", f, n)
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "msgs/s")
}

func BenchmarkPublishAsync(b *testing.B) {
	s, data := benchStep(b)
	subject := CaptureSubject(benchRec)
	b.Run("raw", func(b *testing.B) {
		js, failed := asyncJetStream(b)
		n := 0
		b.SetBytes(int64(len(data)))
		start := time.Now()
		for b.Loop() {
			n++
			msg := &nats.Msg{
				Subject: subject,
				Data:    data,
				Header:  nats.Header{jetstream.MsgIDHeader: []string{StepMsgID(benchRec, uint64(n))}},
			}
			if _, err := js.PublishMsgAsync(msg); err != nil {
				b.Fatal(err)
			}
		}
		drain(b, js, failed, n, start)
	})
	b.Run("typed", func(b *testing.B) {
		js, failed := asyncJetStream(b)
		p := NewPublisher(js)
		step := *s
		b.SetBytes(int64(len(data)))
		start := time.Now()
		for b.Loop() {
			step.Seq++
			if _, err := p.PublishStepAsync(subject, benchRec, &step); err != nil {
				b.Fatal(err)
			}
		}
		drain(b, js, failed, int(step.Seq), start)
	})
}

func BenchmarkEncodeStep(b *testing.B) {
	s, data := benchStep(b)
	buf := make([]byte, 0, 2*len(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if buf, err = AppendMsgpack(buf[:0], s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeStep(b *testing.B) {
	_, data := benchStep(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeStep(data); err != nil {
			b.Fatal(err)
		}
	}
}
