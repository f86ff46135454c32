package recordings

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// damagedError is a recording whose stored messages do not all read back:
// a block changed on disk, a lost key. It names messages, never content.
type damagedError struct {
	recID, detail string
}

func (e *damagedError) Error() string { return e.detail }

// Unwrap gives the ops server the answer for the person.
func (e *damagedError) Unwrap() error { return damaged(e.recID, e.detail) }

// damaged is the error an op answers for a damaged recording: what is
// wrong and what to do, not "retry", which would fail the same way.
func damaged(recID, detail string) error {
	return ops.Errorf(ops.CodeInternal, "recording %s is damaged in the store (%s): it cannot be used; record the task again. The doctor's report lists every damaged recording", short(recID), detail)
}

// MissingSteps describes the step seqs absent from 1..the highest stored
// that no review removed: capture numbers steps without gaps, so such a
// gap is a message the store lost.
func (f *Folded) MissingSteps() string {
	var highest uint64
	for seq := range f.Steps {
		highest = max(highest, seq)
	}
	var missing, first uint64
	for seq := uint64(1); seq <= highest; seq++ {
		if _, ok := f.Steps[seq]; !ok && !f.Removed[seq] {
			if missing++; first == 0 {
				first = seq
			}
		}
	}
	if missing == 0 || f.Stopped != nil && missing <= f.Stopped.Dropped {
		return "" // none, or the steps the stop summary counted lost
	}
	return fmt.Sprintf("%d of its %d steps are missing, the first step %d", missing, highest, first)
}

// storeCheck is the result of the check the daemon runs at start.
type storeCheck struct {
	mu      sync.Mutex
	done    bool
	damaged []api.RecordingDamage
}

// CheckStore reads every kept recording back, as a fetch would, and keeps
// the ones that do not read back whole for Damaged. The daemon runs it in
// the background at start: a store of big recordings takes a while.
func (r *Reader) CheckStore(ctx context.Context) error {
	list, err := r.List(ctx)
	if err != nil {
		return fmt.Errorf("check the store: %w", err)
	}
	var found []api.RecordingDamage
	for _, l := range list {
		if l.State != "stopped" {
			continue // still recording, or left open: its stop says
		}
		f, err := r.Fold(ctx, l.RecordingID)
		var de *damagedError
		switch {
		case errors.As(err, &de):
			found = append(found, api.RecordingDamage{RecordingID: l.RecordingID, Problem: de.detail})
		case ctx.Err() != nil:
			return fmt.Errorf("check the store: %w", ctx.Err())
		case err != nil:
			r.log.Warn("could not check a recording", "recording_id", l.RecordingID, "err", err)
		default:
			if gap := f.MissingSteps(); gap != "" {
				found = append(found, api.RecordingDamage{RecordingID: l.RecordingID, Problem: gap})
			}
		}
	}
	for _, d := range found {
		r.log.Error("a recording is damaged in the store", "recording_id", d.RecordingID, "problem", d.Problem)
	}
	r.check.mu.Lock()
	r.check.done, r.check.damaged = true, found
	r.check.mu.Unlock()
	return nil
}

// Damaged returns the recordings the start-up check found damaged, and
// whether that check has finished.
func (r *Reader) Damaged() ([]api.RecordingDamage, bool) {
	r.check.mu.Lock()
	defer r.check.mu.Unlock()
	return slices.Clone(r.check.damaged), r.check.done
}

// stepEvent names a RECORDINGS message's kind (rec.<id>.<event>) for a
// damage detail.
func stepEvent(subject string) string {
	return subject[strings.LastIndexByte(subject, '.')+1:]
}

// NotFound is RECORDING_NOT_FOUND for id, saying where to look.
func NotFound(id string) *ops.Error {
	return ops.Errorf(ops.CodeRecordingNotFound, "no recording %q on this shim (it may have been evicted)", short(id))
}

// short cuts an id a request gave to a length fit for a message.
func short(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}
