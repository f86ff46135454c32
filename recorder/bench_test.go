package recorder

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/recordings"
	"github.com/reprise-dev/reprise/store"
)

// BenchmarkPipeline measures CAPTURE -> redact -> RECORDINGS, sealed, in
// steps per second ("sealed"), against the same two hops with neither
// sealing nor redaction ("plain"): a consumer that republishes each message
// as it is and acks it after the store's ack, measured in the same run.
func BenchmarkPipeline(b *testing.B) {
	b.Run("plain", func(b *testing.B) { pipeline(b, false) })
	b.Run("sealed", func(b *testing.B) { pipeline(b, true) })
}

func pipeline(b *testing.B, sealed bool) {
	const steps = 20000
	s, err := embedded.Start(embedded.Config{StoreDir: b.TempDir(), MachineID: "m_bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	nc, _ := s.ConnectInProcess("bench")
	defer nc.Close()
	js, _ := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	ctx := context.Background()
	if err := events.EnsureStores(ctx, js); err != nil {
		b.Fatal(err)
	}
	rec := New(Config{JS: js, NC: nc, MachineID: "m_bench", Registry: capture.NewRegistry(), Keys: store.FileKeyStore{Dir: b.TempDir()}})
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		id, _ := newRecordingID()
		// Fill CAPTURE first, so the timed part is the stage alone.
		for seq := uint64(1); seq <= steps; seq++ {
			step := benchStep(seq)
			var data []byte
			if sealed {
				data, err = rec.seal.SealStep(id, recordings.SealCapture, &step)
			} else {
				data, err = events.AppendMsgpack(nil, &step)
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, err := js.PublishMsgAsync(&nats.Msg{Subject: events.CaptureSubject(id), Data: data,
				Header: nats.Header{jetstream.MsgIDHeader: []string{events.StepMsgID(id, seq)}}}); err != nil {
				b.Fatal(err)
			}
		}
		<-js.PublishAsyncComplete()
		start := time.Now()
		b.StartTimer()
		var stop func()
		if sealed {
			if err := rec.StartRedactStage(ctx); err != nil {
				b.Fatal(err)
			}
			stop = func() { rec.fwd.Stop(); rec.forwarder.Close() }
		} else {
			stop = plainStage(b, js)
		}
		if err := rec.waitRedacted(ctx, id); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		b.ReportMetric(steps/time.Since(start).Seconds(), "steps/s")
		stop()
		b.StartTimer()
	}
}

// plainStage is the baseline: the same consumer shape as the redact stage,
// moving bytes as they are.
func plainStage(b *testing.B, js jetstream.JetStream) func() {
	ctx := context.Background()
	cons, err := js.CreateOrUpdateConsumer(ctx, events.StreamCapture, jetstream.ConsumerConfig{
		Durable: "plain", AckPolicy: jetstream.AckExplicitPolicy, MaxAckPending: 1024,
	})
	if err != nil {
		b.Fatal(err)
	}
	fw := events.NewForwarder(js, nil)
	cc, err := cons.Consume(func(m jetstream.Msg) {
		recID := m.Subject()[len("capture."):]
		if err := fw.Forward(m, events.RecordingSubject(recID, events.RecStep), m.Headers().Get(jetstream.MsgIDHeader), m.Data(), nil); err != nil {
			_ = m.Nak()
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	return func() { cc.Stop(); fw.Close() }
}

func benchStep(seq uint64) events.Step {
	steps := formSteps()
	s := steps[1+int(seq)%(len(steps)-1)]
	s.Seq = seq
	s.TS = 1712345678 + float64(seq)/100
	return s
}
