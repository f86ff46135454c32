package recorder

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recordings"
	"github.com/reprise-dev/reprise/redact"
)

// RedactConsumer is the durable consumer that moves steps from CAPTURE to
// RECORDINGS. It survives restarts, so steps captured before a crash still
// reach their recording.
const RedactConsumer = "redact"

// StartRedactStage begins the redact stage: CAPTURE -> (redaction) ->
// RECORDINGS, and rec.<id>.live for co-pilot recordings.
func (r *Recorder) StartRedactStage(ctx context.Context) error {
	cons, err := r.cfg.JS.CreateOrUpdateConsumer(ctx, events.StreamCapture, jetstream.ConsumerConfig{
		Durable:     RedactConsumer,
		Description: "redacts captured steps into RECORDINGS",
		AckPolicy:   jetstream.AckExplicitPolicy,
		// A step takes milliseconds; after a crash, the steps delivered
		// but not acked come back once this passes.
		AckWait:       5 * time.Second,
		MaxAckPending: 1024,
	})
	if err != nil {
		return fmt.Errorf("redact consumer: %w", err)
	}
	r.forwarder = events.NewForwarder(r.cfg.JS, r.log)
	cc, err := cons.Consume(r.redact)
	if err != nil {
		r.forwarder.Close()
		return fmt.Errorf("redact consumer: %w", err)
	}
	r.fwd = cc
	return nil
}

// Close stops an active recording's sources and the redact stage.
func (r *Recorder) Close() {
	r.mu.Lock()
	if s := r.active; s != nil {
		s.stop(r.log)
		r.active = nil
	}
	r.mu.Unlock()
	if r.fwd != nil {
		r.fwd.Stop()
		r.forwarder.Close()
	}
}

// redact handles one captured step. The forwarder acks CAPTURE only after
// RECORDINGS has acked the redacted step; the step's dedupe id makes a
// redelivery after a crash between the two a no-op.
func (r *Recorder) redact(m jetstream.Msg) {
	recID, ok := events.CaptureRecording(m.Subject())
	if !ok || !events.ValidRecordingID(recID) {
		r.log.Warn("dropping a capture message on an unexpected subject")
		_ = m.TermWithReason("bad subject")
		return
	}
	step, err := r.seal.OpenStep(recID, recordings.SealCapture, m)
	if err != nil {
		r.log.Warn("dropping a captured step that does not open", "recording_id", recID, "err", err)
		_ = m.TermWithReason("unreadable step")
		return
	}
	if changed, kinds := redact.Step(step); changed {
		r.log.Debug("redacted a step", "recording_id", recID, "seq", step.Seq, "detectors", kinds)
	}
	sealed, err := r.seal.SealStep(recID, recordings.SealStep, step)
	if err != nil {
		r.log.Warn("redacted step not sealed; will retry", "recording_id", recID, "seq", step.Seq, "err", err)
		_ = m.NakWithDelay(time.Second)
		return
	}
	var live func()
	if r.liveMode(recID) {
		live = func() { r.publishLive(recID, step) }
	}
	if err := r.forwarder.Forward(m, events.RecordingSubject(recID, events.RecStep), events.StepMsgID(recID, step.Seq), sealed, live); err != nil {
		r.log.Warn("redacted step not stored; will retry", "recording_id", recID, "seq", step.Seq, "err", err)
		_ = m.NakWithDelay(time.Second)
	}
}

// liveMode reports whether recID is a co-pilot recording still running or
// stopping; the stage reads it without the recorder's lock, which a stop
// holds no longer than it takes to detach the session.
func (r *Recorder) liveMode(recID string) bool {
	_, ok := r.live.Load(recID)
	return ok
}

// publishLive streams the redacted step to the co-pilot: no ack, no retry.
func (r *Recorder) publishLive(recID string, s *events.Step) {
	data, err := ops.EncodeLiveStep(recID, s)
	if err == nil {
		err = r.cfg.NC.Publish(events.LiveSubject(recID), data)
	}
	if err != nil {
		r.log.Debug("live step not sent", "recording_id", recID, "err", err)
	}
}
