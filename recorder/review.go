package recorder

import (
	"context"
	"fmt"
	"strconv"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// ApplyReview implements APPLY_RECORDING_REVIEW: the person's removals and
// redactions, applied to the retained copy. The reviewed event is written
// first, so every read applies the review even if the shim dies before the
// stored steps are rewritten; then removed steps are erased from the stream
// and redacted ones replaced by their blanked copy.
func (r *Recorder) ApplyReview(ctx context.Context, req ops.ReviewRequest) (ops.ReviewApplied, error) {
	f, err := r.fold(ctx, req.RecordingID)
	if err != nil {
		return ops.ReviewApplied{}, err
	}
	if f.stopped == nil {
		return ops.ReviewApplied{}, ops.Errorf(ops.CodeInvalidRequest, "recording %s is still running; stop it before applying a review", f.id)
	}
	for _, seqs := range [][]uint64{req.RemovedStepSeqs, req.RedactedStepSeqs} {
		for _, seq := range seqs {
			if _, ok := f.steps[seq]; !ok {
				return ops.ReviewApplied{}, ops.Errorf(ops.CodeInvalidRequest, "step %d is not in recording %s; fetch it to see its step seqs", seq, f.id)
			}
		}
	}
	n := f.reviews + 1
	rv := events.RecordingReviewed{ReviewedAt: events.Stamp(r.cfg.Now()), RemovedStepSeqs: nonNil(req.RemovedStepSeqs), RedactedStepSeqs: nonNil(req.RedactedStepSeqs)}
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(f.id, events.RecReviewed), fmt.Sprintf("%s:reviewed:%d", f.id, n), &rv); err != nil {
		return ops.ReviewApplied{}, err
	}
	for _, seq := range rv.RemovedStepSeqs {
		f.removed[seq] = true
	}
	for _, seq := range rv.RedactedStepSeqs {
		f.blanked[seq] = true
	}
	if err := r.rewrite(ctx, f, n); err != nil {
		// The review holds through the reviewed event; the stored copy is
		// rewritten on the next review.
		r.log.Warn("review applied, but old step copies remain in the stream", "recording_id", f.id, "err", err)
	}
	kept := f.kept()
	r.audit(ctx, "recording.reviewed", map[string]string{"recording_id": f.id, "step_count": strconv.Itoa(len(kept))})
	r.log.Info("review applied", "recording_id", f.id, "removed", len(rv.RemovedStepSeqs), "redacted", len(rv.RedactedStepSeqs), "steps", len(kept))
	return ops.ReviewApplied{RecordingID: f.id, StepCount: len(kept)}, nil
}

// rewrite erases removed steps and replaces redacted ones in RECORDINGS, so
// the values are gone from the store, not only from what is read.
func (r *Recorder) rewrite(ctx context.Context, f *folded, review int) error {
	stream, err := r.cfg.JS.Stream(ctx, events.StreamRecordings)
	if err != nil {
		return err
	}
	for seq, st := range f.steps {
		switch {
		case f.removed[seq]:
		case f.blanked[seq] && st.step.Value != nil && (st.step.Value.Raw != "" || !st.step.Redacted):
			blank := *st.step
			v := *blank.Value
			v.Raw, blank.Value, blank.Redacted = "", &v, true
			sealed, err := r.sealStepBytes(f.id, sealStep, &blank)
			if err != nil {
				return err
			}
			id := fmt.Sprintf("%s:%d:review%d", f.id, seq, review)
			if _, err := r.pub.PublishBytes(ctx, events.RecordingSubject(f.id, events.RecStep), id, sealed); err != nil {
				return err
			}
		default:
			continue
		}
		if err := stream.SecureDeleteMsg(ctx, st.streamSeq); err != nil {
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

// Reviewed returns a recording that a skill may be built from: stopped, and
// reviewed by the person at least once (SPEC section 5). Anything else is
// REVIEW_REQUIRED, saying how to review it.
func (r *Recorder) Reviewed(ctx context.Context, recID string) (*events.Recording, error) {
	f, err := r.fold(ctx, recID)
	if err != nil {
		return nil, err
	}
	if f.stopped == nil {
		return nil, ops.Errorf(ops.CodeReviewRequired, "recording %s is still running; stop it, review it (`reprise recordings review %s`), then build the skill", f.id, f.id)
	}
	if f.reviews == 0 {
		return nil, ops.Errorf(ops.CodeReviewRequired, "recording %s has not been reviewed; look at it (`reprise recordings show %s`) and apply a review (`reprise recordings review %s [--remove SEQ,...] [--redact SEQ,...]`) before building a skill from it", f.id, f.id, f.id)
	}
	return f.recording(), nil
}
