package recorder

import (
	"context"
	"errors"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// Recover closes recordings a previous run left open: the daemon died while
// they ran, so their sources are gone. Each is stopped once the redact stage
// has moved every captured step of it to RECORDINGS, so a crash loses only
// the steps still in the capture queue's memory, never one that reached the
// log. Call it after Start.
func (r *Recorder) Recover(ctx context.Context) error {
	list, err := r.List(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, l := range list {
		if l.State != "recording" {
			continue
		}
		if err := r.waitRedacted(ctx, l.RecordingID); err != nil {
			errs = append(errs, err)
			continue
		}
		stopped := events.RecordingStopped{StoppedAt: capture.Stamp(r.cfg.Now())}
		if _, err := r.pub.Publish(ctx, events.RecordingSubject(l.RecordingID, events.RecStopped), l.RecordingID+":stopped", &stopped); err != nil {
			errs = append(errs, err)
			continue
		}
		r.log.Warn("closed a recording the previous run left open; steps still in memory when it died are lost", "recording_id", l.RecordingID)
	}
	return errors.Join(errs...)
}
