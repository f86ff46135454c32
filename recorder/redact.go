package recorder

import (
	"context"
	"errors"
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

// redactAckWait is how long the redact consumer waits for a step's ack
// before delivering it again: a step takes milliseconds; after a crash, the
// steps delivered but not acked come back once this passes.
const redactAckWait = 5 * time.Second

// StartRedactStage begins the redact stage: CAPTURE -> (redaction) ->
// RECORDINGS, and rec.<id>.live for co-pilot recordings.
func (r *Recorder) StartRedactStage(ctx context.Context) error {
	cons, err := r.cfg.JS.CreateOrUpdateConsumer(ctx, events.StreamCapture, jetstream.ConsumerConfig{
		Durable:       RedactConsumer,
		Description:   "redacts captured steps into RECORDINGS",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       redactAckWait,
		MaxAckPending: 1024,
	})
	if err != nil {
		return fmt.Errorf("redact consumer: %w", err)
	}
	// What a crash left in CAPTURE behind the consumer's ack floor would
	// otherwise stay there for good, and a stop wait for it.
	if _, err := r.dropMoved(ctx); err != nil {
		r.log.Warn("could not look for captured steps already moved", "err", err)
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

// dropMoved deletes from CAPTURE the steps the redact consumer has acked
// that the stream holds all the same, and says how many it deleted. A
// SIGKILL can leave one: the server had persisted the consumer's ack but not
// the step's removal from the work queue, and on its next start it looks for
// such leftovers in interest streams only, never in a work queue. The
// consumer never delivers a step at or below its ack floor again, so the
// step would wait in CAPTURE for good, and a stop with it. The stage acks a
// step only once RECORDINGS has stored it, so a step at or below the ack
// floor has been moved: deleting the leftover loses nothing, and forwarding
// it again could store it twice once its dedupe id has expired.
func (r *Recorder) dropMoved(ctx context.Context) (int, error) {
	cons, err := r.cfg.JS.Consumer(ctx, events.StreamCapture, RedactConsumer)
	if err != nil {
		return 0, fmt.Errorf("redact consumer: %w", err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("redact consumer: %w", err)
	}
	floor := info.AckFloor.Stream
	stream, err := r.cfg.JS.Stream(ctx, events.StreamCapture)
	if err != nil {
		return 0, err
	}
	// Healthy, CAPTURE's first step is above the floor: one lookup.
	n := 0
	for seq := uint64(1); seq <= floor; {
		m, err := stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(events.CaptureSubject(events.Wildcard)))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break
		}
		if err != nil {
			return n, fmt.Errorf("look for moved steps: %w", err)
		}
		if m.Sequence > floor {
			break
		}
		if err := stream.DeleteMsg(ctx, m.Sequence); err != nil {
			return n, fmt.Errorf("delete moved step at CAPTURE seq %d: %w", m.Sequence, err)
		}
		n++
		seq = m.Sequence + 1
	}
	if n > 0 {
		r.log.Warn("deleted captured steps a crash left in CAPTURE after they were moved to their recording", "steps", n, "ack_floor", floor)
	}
	return n, nil
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
