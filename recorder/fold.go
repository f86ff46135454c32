package recorder

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

// folded is a recording rebuilt from its events in RECORDINGS.
type folded struct {
	id      string
	started *events.RecordingStarted
	stopped *events.RecordingStopped
	steps   map[uint64]storedStep // by step seq; a later message for a seq replaces an earlier one
	removed map[uint64]bool
	blanked map[uint64]bool
	reviews int
	// answers are the person's confirmations, later ones winning.
	answers map[string]string
	evicted bool
}

// storedStep is a step and where it sits in RECORDINGS.
type storedStep struct {
	step      *events.Step
	streamSeq uint64
}

// fold reads every event of recID. An evicted or unknown recording is
// RECORDING_NOT_FOUND.
func (r *Recorder) fold(ctx context.Context, recID string) (*folded, error) {
	if !events.ValidRecordingID(recID) {
		return nil, notFound(recID)
	}
	f := &folded{id: recID, steps: map[uint64]storedStep{}, removed: map[uint64]bool{}, blanked: map[uint64]bool{}, answers: map[string]string{}}
	err := r.readAll(ctx, []string{events.RecordingFilter(recID)}, func(m jetstream.Msg) error {
		if err := f.add(r, recID, m); err != nil {
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
	if f.started == nil || f.evicted {
		return nil, notFound(recID)
	}
	return f, nil
}

// add folds one message of the recording in.
func (f *folded) add(r *Recorder, recID string, m jetstream.Msg) error {
	event := m.Subject()[strings.LastIndexByte(m.Subject(), '.')+1:]
	switch event {
	case events.RecStarted:
		f.started = new(events.RecordingStarted)
		return events.Decode(m.Data(), f.started)
	case events.RecStopped:
		f.stopped = new(events.RecordingStopped)
		return events.Decode(m.Data(), f.stopped)
	case events.RecStep:
		s, err := r.openStep(recID, sealStep, m)
		if err != nil {
			return err
		}
		meta, err := m.Metadata()
		if err != nil {
			return err
		}
		f.steps[s.Seq] = storedStep{step: s, streamSeq: meta.Sequence.Stream}
	case events.RecReviewed:
		var rv events.RecordingReviewed
		if err := events.Decode(m.Data(), &rv); err != nil {
			return err
		}
		for _, seq := range rv.RemovedStepSeqs {
			f.removed[seq] = true
		}
		for _, seq := range rv.RedactedStepSeqs {
			f.blanked[seq] = true
		}
		f.reviews++
	case events.RecConfirmed:
		var c events.RecordingConfirmed
		if err := events.Decode(m.Data(), &c); err != nil {
			return err
		}
		maps.Copy(f.answers, c.Answers)
	case events.RecEvicted:
		f.evicted = true
	}
	return nil
}

// readAll hands every message of RECORDINGS on subjects to fn, in order.
func (r *Recorder) readAll(ctx context.Context, subjects []string, fn func(jetstream.Msg) error) error {
	return events.ReadAll(ctx, r.cfg.JS, events.StreamRecordings, subjects, fn)
}

// kept returns the steps a review has not removed, in order, with redacted
// values blanked.
func (f *folded) kept() []events.Step {
	out := make([]events.Step, 0, len(f.steps))
	for _, seq := range slices.Sorted(maps.Keys(f.steps)) {
		if f.removed[seq] {
			continue
		}
		s := *f.steps[seq].step
		if f.blanked[seq] && s.Value != nil {
			v := *s.Value
			v.Raw = ""
			s.Value = &v
			s.Redacted = true
		}
		out = append(out, s)
	}
	return out
}

// recording is the whole recording as RECORDING_FETCH returns it.
func (f *folded) recording() *events.Recording {
	return &events.Recording{
		RecordingID:         f.id,
		Version:             f.started.Version,
		CreatedAt:           f.started.CreatedAt,
		MachineID:           f.started.MachineID,
		InterpretationRoute: f.started.InterpretationRoute,
		Steps:               f.kept(),
		// Every stored step went through the redact stage's detectors.
		RedactionApplied: true,
	}
}

// summary is RECORDING_SUMMARY.
func (f *folded) summary() ops.Summary {
	sum := ops.Summary{RecordingID: f.id}
	for _, s := range f.kept() {
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
	if f.stopped != nil {
		sum.DurationSeconds = max(0, f.stopped.StoppedAt-f.started.CreatedAt)
		if sum.LostSteps = f.stopped.Dropped; sum.LostSteps > 0 {
			sum.Warnings = append(sum.Warnings, LostWarning(sum.LostSteps))
		}
	}
	if interpret.RecordsPoorly(f.started.Probe, sum.StepCount, sum.EnrichmentCoverage.None) {
		sum.Warnings = append(sum.Warnings, interpret.PoorWarning)
	}
	return sum
}

// LostWarning tells the person a recording is missing steps, and why.
func LostWarning(n uint64) string {
	return fmt.Sprintf("%d captured step(s) were lost: they came faster than the store took them, or the store could not write them (a full disk; see the daemon's log). The recording is incomplete: record the task again before building a skill from it", n)
}

// FetchRecording implements the RECORDING_FETCH op.
func (r *Recorder) FetchRecording(ctx context.Context, req ops.RecordingRef) (*ops.Data, error) {
	f, err := r.fold(ctx, req.RecordingID)
	if err != nil {
		return nil, err
	}
	if f.stopped != nil {
		if gap := f.missingSteps(); gap != "" {
			return nil, damaged(req.RecordingID, gap)
		}
	}
	return f.recording(), nil
}
