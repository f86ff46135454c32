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

// foldRow reads what run runID's events say of one row.
func foldRow(ctx context.Context, js jetstream.JetStream, runID string, n int) (*rowState, error) {
	s := &runState{rows: map[int]*rowState{}}
	subjects := make([]string, 0, 4)
	for _, k := range []string{EvStarted, EvCommitted, EvFailed, EvUnknown} {
		subjects = append(subjects, events.ReplaySubject(runID, n, k))
	}
	err := events.ReadAll(ctx, js, events.StreamReplay, subjects, func(m jetstream.Msg) error {
		_, row, ev, ok := parseSubject(m.Subject())
		if !ok || row != n {
			return nil
		}
		return s.apply(row, ev, m.Data())
	})
	if err != nil {
		return nil, fmt.Errorf("read row %d of run %s: %w", n, runID, err)
	}
	return s.row(n), nil
}

// foldRun reads run runID's events; a run never written has session 0.
func foldRun(ctx context.Context, js jetstream.JetStream, runID string) (*runState, error) {
	s := &runState{rows: map[int]*rowState{}}
	kinds := []string{EvPlanned, EvStarted, EvCommitted, EvFailed, EvUnknown}
	err := readRun(ctx, js, runID, kinds, func(_ string, row int, event string, data []byte) error {
		return s.apply(row, event, data)
	})
	if err != nil {
		return nil, fmt.Errorf("read run %s: %w", runID, err)
	}
	return s, nil
}

// apply folds one event of the run into s.
func (s *runState) apply(row int, event string, data []byte) error {
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
}

// earlierRow is what other runs of a skill did with a dedupe key: filed
// it (committed), or began filing it and never confirmed it (in flight).
type earlierRow struct {
	run       string
	committed bool
}

// earlierKeys returns, for each dedupe key another run of skillID began
// filing, whether that run (or any) committed it. A key only ever failed
// before its destructive step is not in it: nothing was filed.
func earlierKeys(ctx context.Context, js jetstream.JetStream, skillID, except string) (map[string]earlierRow, error) {
	type state struct {
		run                  string
		started, committed   bool
		unknown, failedClean bool
	}
	rows := map[string]*state{} // run/row -> what happened
	keys := map[string]string{} // run/row -> dedupe key
	err := readRun(ctx, js, "*", []string{EvStarted, EvCommitted, EvUnknown, EvFailed}, func(runID string, row int, event string, data []byte) error {
		if runID == except {
			return nil
		}
		id := fmt.Sprintf("%s/%d", runID, row)
		st := rows[id]
		if st == nil {
			st = &state{run: runID}
			rows[id] = st
		}
		if event == EvFailed {
			var f RowFailed
			if err := events.Decode(data, &f); err != nil {
				return err
			}
			st.failedClean = f.Before
			return nil
		}
		var m RowMark
		if err := events.Decode(data, &m); err != nil {
			return err
		}
		if m.SkillID != skillID || m.Key == "" {
			return nil
		}
		keys[id] = m.Key
		switch event {
		case EvStarted:
			st.started, st.failedClean = true, false // a retried row starts over
		case EvCommitted:
			st.committed = true
		case EvUnknown:
			st.unknown = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read earlier runs of %s: %w", skillID, err)
	}
	out := map[string]earlierRow{}
	for id, key := range keys {
		st := rows[id]
		switch {
		case st.committed:
			out[key] = earlierRow{run: st.run, committed: true}
		case (st.started || st.unknown) && !st.failedClean:
			if _, ok := out[key]; !ok {
				out[key] = earlierRow{run: st.run}
			}
		}
	}
	return out, nil
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
