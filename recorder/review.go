package recorder

import (
	"context"
	"fmt"
	"strconv"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/recordings"
)

// ApplyReview implements APPLY_RECORDING_REVIEW: the person's removals and
// redactions, applied to the retained copy. The reviewed event is written
// first, so every read applies the review even if the shim dies before the
// stored steps are rewritten; then removed steps are erased from the stream
// and redacted ones replaced by their blanked copy.
func (r *Recorder) ApplyReview(ctx context.Context, req ops.ReviewRequest) (ops.ReviewApplied, error) {
	f, err := r.recs.Fold(ctx, req.RecordingID)
	if err != nil {
		return ops.ReviewApplied{}, err
	}
	if f.Stopped == nil {
		return ops.ReviewApplied{}, ops.Errorf(ops.CodeInvalidRequest, "recording %s is still running; stop it before applying a review", f.ID)
	}
	for _, seqs := range [][]uint64{req.RemovedStepSeqs, req.RedactedStepSeqs} {
		for _, seq := range seqs {
			if _, ok := f.Steps[seq]; !ok {
				return ops.ReviewApplied{}, ops.Errorf(ops.CodeInvalidRequest, "step %d is not in recording %s; fetch it to see its step seqs", seq, f.ID)
			}
		}
	}
	n := f.Reviews + 1
	rv := events.RecordingReviewed{ReviewedAt: events.Stamp(r.cfg.Now()), RemovedStepSeqs: nonNil(req.RemovedStepSeqs), RedactedStepSeqs: nonNil(req.RedactedStepSeqs)}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(f.ID, events.RecReviewed), fmt.Sprintf("%s:reviewed:%d", f.ID, n), &rv); err != nil {
		return ops.ReviewApplied{}, err
	}
	for _, seq := range rv.RemovedStepSeqs {
		f.Removed[seq] = true
	}
	for _, seq := range rv.RedactedStepSeqs {
		f.Blanked[seq] = true
	}
	if err := r.rewrite(ctx, f, n); err != nil {
		// The review holds through the reviewed event; the stored copy is
		// rewritten on the next review.
		r.log.Warn("review applied, but old step copies remain in the stream", "recording_id", f.ID, "err", err)
	}
	kept := f.Kept()
	r.audit(ctx, "recording.reviewed", map[string]string{"recording_id": f.ID, "step_count": strconv.Itoa(len(kept))})
	r.log.Info("review applied", "recording_id", f.ID, "removed", len(rv.RemovedStepSeqs), "redacted", len(rv.RedactedStepSeqs), "steps", len(kept))
	return ops.ReviewApplied{RecordingID: f.ID, StepCount: len(kept)}, nil
}

// rewrite erases removed steps and replaces redacted ones in RECORDINGS, so
// the values are gone from the store, not only from what is read.
func (r *Recorder) rewrite(ctx context.Context, f *recordings.Folded, review int) error {
	stream, err := r.cfg.JS.Stream(ctx, events.StreamRecordings)
	if err != nil {
		return err
	}
	for seq, st := range f.Steps {
		switch {
		case f.Removed[seq]:
		case f.Blanked[seq] && st.Step.Value != nil && (st.Step.Value.Raw != "" || !st.Step.Redacted):
			blank := *st.Step
			v := *blank.Value
			v.Raw, blank.Value, blank.Redacted = "", &v, true
			sealed, err := r.seal.SealStep(f.ID, recordings.SealStep, &blank)
			if err != nil {
				return err
			}
			id := fmt.Sprintf("%s:%d:review%d", f.ID, seq, review)
			if _, err := r.pub.PublishBytes(ctx, events.RecordingSubject(f.ID, events.RecStep), id, sealed); err != nil {
				return err
			}
		default:
			continue
		}
		if err := stream.SecureDeleteMsg(ctx, st.StreamSeq); err != nil {
			return fmt.Errorf("erase step %d: %w", seq, err)
		}
	}
	return nil
}

func nonNil(xs []uint64) []uint64 {
	if xs == nil {
		return []uint64{}
	}
	return xs
}
