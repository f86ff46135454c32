package recorder

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recordings"
)

// StopRecording implements the STOP_RECORDING op. Stopping a recording that
// is already stopped answers its summary again.
func (r *Recorder) StopRecording(ctx context.Context, req ops.RecordingRef) (ops.Summary, error) {
	if !events.ValidRecordingID(req.RecordingID) {
		return ops.Summary{}, recordings.NotFound(req.RecordingID)
	}
	r.mu.Lock()
	s := r.active
	if s == nil || s.started.RecordingID != req.RecordingID {
		defer r.mu.Unlock()
		rec, err := r.recs.Fold(ctx, req.RecordingID)
		if err != nil {
			return ops.Summary{}, err
		}
		if rec.Stopped == nil {
			// Left open by a crash and not resumed (yet): close it now,
			// under the lock, so a resume cannot start it again.
			if err := r.closeLeftOpen(ctx, req.RecordingID); err != nil {
				return ops.Summary{}, err
			}
			if rec, err = r.recs.Fold(ctx, req.RecordingID); err != nil {
				return ops.Summary{}, err
			}
		}
		return rec.Summary(), nil
	}
	r.active = nil
	r.mu.Unlock()
	defer r.live.Delete(req.RecordingID)

	s.stop(r.log)
	if err := r.waitRedacted(ctx, req.RecordingID); err != nil {
		// Not stopped yet: the steps waiting are the recording's, and the
		// next stop counts what was lost with them.
		r.mu.Lock()
		if r.active == nil {
			r.active = s
		}
		r.mu.Unlock()
		return ops.Summary{}, err
	}
	stopped := events.RecordingStopped{StoppedAt: events.Stamp(r.cfg.Now()), Dropped: s.queue.Dropped() + s.lost.Load()}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(req.RecordingID, events.RecStopped), req.RecordingID+":stopped", &stopped); err != nil {
		return ops.Summary{}, err
	}
	if stopped.Dropped > 0 {
		r.log.Warn("steps dropped while the capture queue was full", "recording_id", req.RecordingID, "dropped", stopped.Dropped)
	}
	rec, err := r.recs.Fold(ctx, req.RecordingID)
	if err != nil {
		return ops.Summary{}, err
	}
	sum := rec.Summary()
	r.audit(ctx, "recording.stopped", map[string]string{"recording_id": req.RecordingID, "step_count": strconv.Itoa(sum.StepCount)})
	if err := r.retain(ctx); err != nil {
		r.log.Warn("retention: could not evict an old recording", "err", err)
	}
	r.log.Info("recording stopped", "recording_id", req.RecordingID, "steps", sum.StepCount, "duration_s", sum.DurationSeconds)
	return sum, nil
}

// waitRedacted waits until every step captured for recID has been moved to
// RECORDINGS: CAPTURE is a work queue, so it holds none for recID then.
func (r *Recorder) waitRedacted(ctx context.Context, recID string) error {
	subject := events.CaptureSubject(recID)
	stream, err := r.cfg.JS.Stream(ctx, events.StreamCapture)
	if err != nil {
		return fmt.Errorf("wait for redaction: %w", err)
	}
	// The wait lasts while the redact stage makes progress (a big
	// recording on a slow machine), and 30 s past the last progress; 10 s
	// when the store refuses the steps for lack of room, which waiting
	// longer will not give.
	progressAt, left, swept := time.Now(), uint64(0), false
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		info, err := stream.Info(ctx, jetstream.WithSubjectFilter(subject))
		if err != nil {
			return fmt.Errorf("wait for redaction: %w", err)
		}
		n := info.State.Subjects[subject]
		if n == 0 {
			return nil
		}
		if left != 0 && n < left {
			progressAt, swept = time.Now(), false
		}
		left = n
		stalled := time.Since(progressAt)
		// Past an ack wait without progress, a step still here either
		// waits on a stage that is stuck, or was moved and left behind by
		// a crash, behind the ack floor (see dropMoved); the ack floor may
		// only have passed it since the stage started.
		if stalled > 2*redactAckWait && !swept && r.fwd != nil {
			swept = true
			if _, err := r.dropMoved(ctx); err != nil {
				r.log.Warn("could not look for captured steps already moved", "err", err)
			}
		}
		if stalled > 10*time.Second && r.forwarder != nil && events.StoreFull(r.forwarder.Failing()) {
			return ops.Errorf(ops.CodeInternal, "%d captured steps of %s cannot be stored yet: the disk holding the data dir is full. They are kept, and move into the recording once there is room: free some space, then stop again", n, recID)
		}
		if stalled > 30*time.Second {
			return ops.Errorf(ops.CodeInternal, "%d captured steps of %s are still waiting for redaction after 30 s without progress; stop again to retry", n, recID)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}
