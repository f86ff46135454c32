package recorder

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/events"
)

// Recover picks up recordings a previous run left open: the daemon died
// while they ran. The newest is resumed, since the person may still be
// demonstrating: its sources start again and its steps continue from the
// last seq written. Any older one, or one whose channels are gone, is closed
// once the redact stage has moved its captured steps. Steps still in the
// capture queue's memory when the daemon died are lost; none that reached
// the log are. Call it after Start.
func (r *Recorder) Recover(ctx context.Context) error {
	list, err := r.recs.List(ctx)
	if err != nil {
		return err
	}
	var open []string
	for _, l := range list {
		if l.State == "recording" {
			open = append(open, l.RecordingID)
		}
	}
	var errs []error
	for i, id := range open {
		if i == len(open)-1 {
			err := r.resume(ctx, id)
			if err == nil {
				continue
			}
			r.log.Warn("could not resume a recording; closing it", "recording_id", id, "err", err)
		}
		if err := r.closeLeftOpen(ctx, id); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// resumeWait bounds, in half seconds, how long a resume waits for its
// channels to come back.
const resumeWait = 20

// resume restarts the sources of recID, continuing its seq.
func (r *Recorder) resume(ctx context.Context, recID string) error {
	started, err := r.startedEvent(ctx, recID)
	if err != nil {
		return err
	}
	if started.Mode == ModeImport {
		return errors.New("an import cut short is not resumed: import its file again")
	}
	// A source whose peer reconnects after the restart (the browser
	// extension says hello every few seconds) may need a moment.
	sources, err := r.cfg.Registry.Select(started.Channels)
	for wait := 0; errors.Is(err, capture.ErrChannelUnavailable) && wait < resumeWait; wait++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
		sources, err = r.cfg.Registry.Select(started.Channels)
	}
	if err != nil {
		return err
	}
	last, err := r.lastSeq(ctx, recID)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active != nil {
		return fmt.Errorf("recording %s is already active", r.active.started.RecordingID)
	}
	// A stop may have closed it since Recover listed it.
	if st, err := r.cfg.JS.Stream(ctx, events.StreamRecordings); err != nil {
		return err
	} else if _, err := st.GetLastMsgForSubject(ctx, events.RecordingSubject(recID, events.RecStopped)); err == nil {
		return nil
	}
	s, err := r.startSession(*started, sources, last)
	if err != nil {
		return err
	}
	r.active = s
	if started.Mode == capture.ModeCopilot {
		r.live.Store(recID, struct{}{})
	}
	r.log.Warn("resumed a recording the previous run left open; steps in memory when it died are lost", "recording_id", recID, "after_seq", last)
	return nil
}

// closeLeftOpen stops a recording whose sources are gone for good.
func (r *Recorder) closeLeftOpen(ctx context.Context, recID string) error {
	if err := r.waitRedacted(ctx, recID); err != nil {
		return err
	}
	stopped := events.RecordingStopped{StoppedAt: events.Stamp(r.cfg.Now())}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(recID, events.RecStopped), recID+":stopped", &stopped); err != nil {
		return err
	}
	r.log.Warn("closed a recording the previous run left open", "recording_id", recID)
	return nil
}

func (r *Recorder) startedEvent(ctx context.Context, recID string) (*events.RecordingStarted, error) {
	st, err := r.cfg.JS.Stream(ctx, events.StreamRecordings)
	if err != nil {
		return nil, err
	}
	m, err := st.GetLastMsgForSubject(ctx, events.RecordingSubject(recID, events.RecStarted))
	if err != nil {
		return nil, fmt.Errorf("started event of %s: %w", recID, err)
	}
	var started events.RecordingStarted
	if err := events.Decode(m.Data, &started); err != nil {
		return nil, err
	}
	return &started, nil
}

// lastSeq is the highest step seq of recID written to the log, read from
// the dedupe ids (nothing is opened). CAPTURE is written in seq order, yet its
// last step of recID is not always the highest written: steps after it may
// have been moved already (it waits for a redelivery), or it is a step a
// crash left behind after moving it (see dropMoved). So the highest of it and
// of RECORDINGS, scanned since redeliveries may have stored steps out of
// order. Resuming below the highest would reuse seqs: within the dedupe
// window CAPTURE drops the new steps as repeats, silently.
func (r *Recorder) lastSeq(ctx context.Context, recID string) (uint64, error) {
	st, err := r.cfg.JS.Stream(ctx, events.StreamCapture)
	if err != nil {
		return 0, err
	}
	var last uint64
	m, err := st.GetLastMsgForSubject(ctx, events.CaptureSubject(recID))
	switch {
	case err == nil:
		if last, err = events.StepSeq(recID, m.Header.Get(jetstream.MsgIDHeader)); err != nil {
			return 0, err
		}
	case !errors.Is(err, jetstream.ErrMsgNotFound):
		return 0, err
	}
	err = events.ReadAll(ctx, r.cfg.JS, events.StreamRecordings, []string{events.RecordingSubject(recID, events.RecStep)}, func(m jetstream.Msg) error {
		seq, err := events.StepSeq(recID, m.Headers().Get(jetstream.MsgIDHeader))
		last = max(last, seq)
		return err
	})
	return last, err
}
