package recorder

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recordings"
)

// DefaultKeep is how many recordings a shim keeps when Config.Keep is zero.
const DefaultKeep = 20

// retain evicts the oldest stopped recordings past the newest Keep.
func (r *Recorder) retain(ctx context.Context) error {
	keep := r.cfg.Keep
	if keep <= 0 {
		keep = DefaultKeep
	}
	list, err := r.recs.List(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for i := 0; len(list)-i > keep; i++ {
		if list[i].State != "stopped" {
			continue // never evict a recording that is still running
		}
		if err := r.Evict(ctx, list[i].RecordingID); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Evict crypto-erases a recording: its data key is deleted first, so what
// may remain on disk can no longer be read, then its steps and frames are
// purged and rec.<id>.evicted is written. RECORDING_FETCH then answers
// RECORDING_NOT_FOUND.
func (r *Recorder) Evict(ctx context.Context, recID string) error {
	if !events.ValidRecordingID(recID) {
		return recordings.NotFound(recID)
	}
	r.mu.Lock()
	active := r.active != nil && r.active.started.RecordingID == recID
	r.mu.Unlock()
	if active {
		return ops.Errorf(ops.CodeInvalidRequest, "recording %s is running; stop it before evicting it", recID)
	}
	if err := r.seal.Forget(recID); err != nil {
		return fmt.Errorf("evict %s: %w", recID, err)
	}
	stream, err := r.cfg.JS.Stream(ctx, events.StreamRecordings)
	if err != nil {
		return fmt.Errorf("evict %s: %w", recID, err)
	}
	for _, event := range []string{events.RecStarted, events.RecStep, events.RecStopped, events.RecReviewed, events.RecConfirmed} {
		if err := stream.Purge(ctx, jetstream.WithPurgeSubject(events.RecordingSubject(recID, event))); err != nil {
			return fmt.Errorf("evict %s: purge %s: %w", recID, event, err)
		}
	}
	capt, err := r.cfg.JS.Stream(ctx, events.StreamCapture)
	if err == nil {
		err = capt.Purge(ctx, jetstream.WithPurgeSubject(events.CaptureSubject(recID)))
	}
	if err != nil {
		return fmt.Errorf("evict %s: purge capture: %w", recID, err)
	}
	if err := r.purgeFrames(ctx, recID); err != nil {
		return fmt.Errorf("evict %s: %w", recID, err)
	}
	ev := events.RecordingEvicted{EvictedAt: events.Stamp(r.cfg.Now())}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(recID, events.RecEvicted), recID+":evicted", &ev); err != nil {
		return fmt.Errorf("evict %s: %w", recID, err)
	}
	r.audit(ctx, "recording.evicted", map[string]string{"recording_id": recID})
	r.log.Info("recording evicted", "recording_id", recID)
	return nil
}

// purgeFrames deletes the recording's frames, named <rec_id>/<ref>.
func (r *Recorder) purgeFrames(ctx context.Context, recID string) error {
	frames, err := r.cfg.JS.ObjectStore(ctx, events.ObjectFrames)
	if err != nil {
		return fmt.Errorf("frames: %w", err)
	}
	infos, err := frames.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("frames: %w", err)
	}
	for _, info := range infos {
		if strings.HasPrefix(info.Name, recID+"/") {
			if err := frames.Delete(ctx, info.Name); err != nil {
				return fmt.Errorf("delete frame: %w", err)
			}
		}
	}
	return nil
}
