package replay

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// rowState is what the log says of one row of a run.
type rowState struct {
	started   bool
	committed bool
	unknown   bool
	failed    *RowFailed
}

// inFlight says the row's destructive step may have run without its
// commit mark: the process died between the two.
func (r *rowState) inFlight() bool {
	return r.started && !r.committed && !r.unknown && (r.failed == nil || r.failed.Before)
}

// runState is a run folded from its events.
type runState struct {
	planned *Planned
	session int
	rows    map[int]*rowState
}

func (s *runState) row(n int) *rowState {
	r, ok := s.rows[n]
	if !ok {
		r = &rowState{}
		s.rows[n] = r
	}
	return r
}

// foldRun reads run runID's events; a run never written has session 0.
func foldRun(ctx context.Context, js jetstream.JetStream, runID string) (*runState, error) {
	s := &runState{rows: map[int]*rowState{}}
	kinds := []string{EvPlanned, EvStarted, EvCommitted, EvFailed, EvUnknown}
	err := readRun(ctx, js, runID, kinds, func(_ string, row int, event string, data []byte) error {
		switch event {
		case EvPlanned:
			var p Planned
			if err := events.Decode(data, &p); err != nil {
				return err
			}
			s.planned, s.session = &p, max(s.session, p.Session)
		case EvStarted:
			r := s.row(row)
			r.started, r.failed = true, nil // a retried row starts over
		case EvCommitted:
			s.row(row).committed = true
		case EvUnknown:
			s.row(row).unknown = true
		case EvFailed:
			var f RowFailed
			if err := events.Decode(data, &f); err != nil {
				return err
			}
			r := s.row(row)
			r.failed = &f
			if f.Before {
				r.started = false // nothing was filed; a resume may run it again
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read run %s: %w", runID, err)
	}
	return s, nil
}

// committedKeys returns the dedupe keys every other run of skillID
// committed, with the run that did.
func committedKeys(ctx context.Context, js jetstream.JetStream, skillID, except string) (map[string]string, error) {
	keys := map[string]string{}
	err := readRun(ctx, js, "*", []string{EvCommitted}, func(runID string, _ int, _ string, data []byte) error {
		var m RowMark
		if err := events.Decode(data, &m); err != nil {
			return err
		}
		if runID != except && m.SkillID == skillID && m.Key != "" {
			keys[m.Key] = runID
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read earlier runs of %s: %w", skillID, err)
	}
	return keys, nil
}

// dryRunPassed says whether a dry run of this skill version passed.
func dryRunPassed(ctx context.Context, js jetstream.JetStream, skillID, digest string) (bool, error) {
	passed := false
	err := readRun(ctx, js, "*", []string{EvDryRun}, func(_ string, _ int, _ string, data []byte) error {
		var d DryRunPassed
		if err := events.Decode(data, &d); err != nil {
			return err
		}
		passed = passed || (d.SkillID == skillID && d.SkillDigest == digest)
		return nil
	})
	return passed, err
}
