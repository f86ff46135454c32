// Package recordings is the read model of RECORDINGS and FRAMES: a
// recording folded from its events with its sealed steps opened, the list
// of kept recordings, their frames, and the start-up check that every kept
// recording reads back whole. skillbook, the co-pilot and the CLI's local
// services read through it; recorder keeps the lifecycle (start, capture ->
// redact -> store, stop, review, evict) and writes.
package recordings

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interpret"
	"github.com/reprise-dev/reprise/ops"
)

// Folded is a recording rebuilt from its events in RECORDINGS.
type Folded struct {
	ID      string
	Started *events.RecordingStarted
	Stopped *events.RecordingStopped // nil while it records
	Steps   map[uint64]StoredStep    // by step seq; a later message for a seq replaces an earlier one
	// Removed and Blanked are the step seqs reviews removed, and whose
	// values they blanked.
	Removed map[uint64]bool
	Blanked map[uint64]bool
	Reviews int
	// Answers are the person's confirmations, later ones winning.
	Answers map[string]string
	evicted bool
}

// StoredStep is a step and where it sits in RECORDINGS.
type StoredStep struct {
	Step      *events.Step
	StreamSeq uint64
}

// Fold reads every event of recID. An evicted or unknown recording is
// RECORDING_NOT_FOUND; one whose messages do not read back is damaged.
func (r *Reader) Fold(ctx context.Context, recID string) (*Folded, error) {
	if !events.ValidRecordingID(recID) {
		return nil, NotFound(recID)
	}
	f := &Folded{ID: recID, Steps: map[uint64]StoredStep{}, Removed: map[uint64]bool{}, Blanked: map[uint64]bool{}, Answers: map[string]string{}}
	err := r.readAll(ctx, []string{events.RecordingFilter(recID)}, func(m jetstream.Msg) error {
		if err := f.add(r.seal, recID, m); err != nil {
			meta, _ := m.Metadata()
			at := uint64(0)
			if meta != nil {
				at = meta.Sequence.Stream
			}
			return &damagedError{recID: recID, detail: fmt.Sprintf("its %s at stream seq %d does not read back: %v", stepEvent(m.Subject()), at, err)}
		}
		return nil
	})
	var de *damagedError
	if errors.As(err, &de) {
		return nil, de
	}
	if errors.Is(err, events.ErrUnreadable) {
		return nil, &damagedError{recID: recID, detail: "some of its messages cannot be read from the store"}
	}
	if err != nil {
		return nil, fmt.Errorf("fold %s: %w", recID, err)
	}
	if f.Started == nil || f.evicted {
		return nil, NotFound(recID)
	}
	return f, nil
}

// add folds one message of the recording in.
func (f *Folded) add(seal *Sealers, recID string, m jetstream.Msg) error {
	event := m.Subject()[strings.LastIndexByte(m.Subject(), '.')+1:]
	switch event {
	case events.RecStarted:
		f.Started = new(events.RecordingStarted)
		return events.Decode(m.Data(), f.Started)
	case events.RecStopped:
		f.Stopped = new(events.RecordingStopped)
		return events.Decode(m.Data(), f.Stopped)
	case events.RecStep:
		s, err := seal.OpenStep(recID, SealStep, m)
		if err != nil {
			return err
		}
		meta, err := m.Metadata()
		if err != nil {
			return err
		}
		f.Steps[s.Seq] = StoredStep{Step: s, StreamSeq: meta.Sequence.Stream}
	case events.RecReviewed:
		var rv events.RecordingReviewed
		if err := events.Decode(m.Data(), &rv); err != nil {
			return err
		}
		for _, seq := range rv.RemovedStepSeqs {
			f.Removed[seq] = true
		}
		for _, seq := range rv.RedactedStepSeqs {
			f.Blanked[seq] = true
		}
		f.Reviews++
	case events.RecConfirmed:
		var c events.RecordingConfirmed
		if err := events.Decode(m.Data(), &c); err != nil {
			return err
		}
		maps.Copy(f.Answers, c.Answers)
	case events.RecEvicted:
		f.evicted = true
	}
	return nil
}

// readAll hands every message of RECORDINGS on subjects to fn, in order.
func (r *Reader) readAll(ctx context.Context, subjects []string, fn func(jetstream.Msg) error) error {
	return events.ReadAll(ctx, r.js, events.StreamRecordings, subjects, fn)
}

// Kept returns the steps a review has not removed, in order, with redacted
// values blanked.
func (f *Folded) Kept() []events.Step {
	out := make([]events.Step, 0, len(f.Steps))
	for _, seq := range slices.Sorted(maps.Keys(f.Steps)) {
		if f.Removed[seq] {
			continue
		}
		s := *f.Steps[seq].Step
		if f.Blanked[seq] && s.Value != nil {
			v := *s.Value
			v.Raw = ""
			s.Value = &v
			s.Redacted = true
		}
		out = append(out, s)
	}
	return out
}

// Recording is the whole recording as RECORDING_FETCH returns it.
func (f *Folded) Recording() *events.Recording {
	return &events.Recording{
		RecordingID:         f.ID,
		Version:             f.Started.Version,
		CreatedAt:           f.Started.CreatedAt,
		MachineID:           f.Started.MachineID,
		InterpretationRoute: f.Started.InterpretationRoute,
		Steps:               f.Kept(),
		// Every stored step went through the redact stage's detectors.
		RedactionApplied: true,
	}
}

// Summary is RECORDING_SUMMARY.
func (f *Folded) Summary() ops.Summary {
	sum := ops.Summary{RecordingID: f.ID}
	for _, s := range f.Kept() {
		sum.StepCount++
		kind := events.KindNone
		if s.Enrichment != nil {
			kind = s.Enrichment.Kind
		}
		switch kind {
		case events.KindDOM:
			sum.EnrichmentCoverage.DOM++
		case events.KindAX:
			sum.EnrichmentCoverage.AX++
		default:
			sum.EnrichmentCoverage.None++
		}
	}
	if f.Stopped != nil {
		sum.DurationSeconds = max(0, f.Stopped.StoppedAt-f.Started.CreatedAt)
		if sum.LostSteps = f.Stopped.Dropped; sum.LostSteps > 0 {
			sum.Warnings = append(sum.Warnings, LostWarning(sum.LostSteps))
		}
	}
	if interpret.RecordsPoorly(f.Started.Probe, sum.StepCount, sum.EnrichmentCoverage.None) {
		sum.Warnings = append(sum.Warnings, interpret.PoorWarning)
	}
	return sum
}

// LostWarning tells the person a recording is missing steps, and why.
func LostWarning(n uint64) string {
	return fmt.Sprintf("%d captured step(s) were lost: they came faster than the store took them, or the store could not write them (a full disk; see the daemon's log). The recording is incomplete: record the task again before building a skill from it", n)
}

// Fetch returns a recording whatever its review state (RECORDING_FETCH).
// A stopped recording missing steps the stop did not count lost is damaged.
func (r *Reader) Fetch(ctx context.Context, recID string) (*events.Recording, error) {
	f, err := r.Fold(ctx, recID)
	if err != nil {
		return nil, err
	}
	if f.Stopped != nil {
		if gap := f.MissingSteps(); gap != "" {
			return nil, damaged(recID, gap)
		}
	}
	return f.Recording(), nil
}

// Reviewed returns a recording that a skill may be built from: stopped, and
// reviewed by the person at least once (SPEC section 5). Anything else is
// REVIEW_REQUIRED, saying how to review it.
func (r *Reader) Reviewed(ctx context.Context, recID string) (*events.Recording, error) {
	f, err := r.Fold(ctx, recID)
	if err != nil {
		return nil, err
	}
	if f.Stopped == nil {
		return nil, ops.Errorf(ops.CodeReviewRequired, "recording %s is still running; stop it, review it, then build the skill", f.ID)
	}
	if f.Reviews == 0 {
		return nil, ops.Errorf(ops.CodeReviewRequired, "recording %s has not been reviewed; look at it and apply a review (removing or redacting the steps that should not be kept) before building a skill from it", f.ID)
	}
	return f.Recording(), nil
}

// Answers returns the person's confirmations for a recording.
func (r *Reader) Answers(ctx context.Context, recID string) (map[string]string, error) {
	f, err := r.Fold(ctx, recID)
	if err != nil {
		return nil, err
	}
	return f.Answers, nil
}
