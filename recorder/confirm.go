package recorder

import (
	"context"
	"fmt"
	"maps"
	"strconv"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// maxAnswers bounds one confirmation: a recording has no more parameters.
const maxAnswers = 256

// Confirm records the person's answers about a recording's parameters (a
// parameter's column, or "const"), as the co-pilot asks them. A skill built
// from the recording uses them.
func (r *Recorder) Confirm(ctx context.Context, recID string, answers map[string]string) error {
	f, err := r.recs.Fold(ctx, recID)
	if err != nil {
		return err
	}
	if len(answers) == 0 || len(answers) > maxAnswers {
		return ops.Errorf(ops.CodeInvalidRequest, "answers: give 1 to %d, parameter name to column or const", maxAnswers)
	}
	for name, a := range answers {
		if name == "" || len(name) > 256 || a == "" || len(a) > 256 {
			return ops.Errorf(ops.CodeInvalidRequest, "answers: a key (a parameter name, name/cell, column:NAME, field:LABEL or success:STEP; 1-256 bytes) to an answer (1-256 bytes)")
		}
	}
	c := events.RecordingConfirmed{ConfirmedAt: events.Stamp(r.cfg.Now()), Answers: maps.Clone(answers)}
	n := len(f.Answers) + 1
	msgID := f.ID + ":confirmed:" + strconv.FormatInt(int64(c.ConfirmedAt*1e6), 10)
	if _, err := r.pub.Publish(ctx, events.RecordingSubject(f.ID, events.RecConfirmed), msgID, &c); err != nil {
		return fmt.Errorf("record answers %d of %s: %w", n, f.ID, err)
	}
	return nil
}
