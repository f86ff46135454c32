package replay

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// RowJob is one row of a run, filed by one worker of a hub (SPEC 12): the
// row's state is folded from the hub's log, the row filled on Executor in
// this process, and its marks written to the hub's log.
type RowJob struct {
	JS jetstream.JetStream
	// Plan holds the run's skill and at least this row.
	Plan     *Plan
	Row      Row
	Session  int
	DryRun   bool
	Executor Executor
	// Ask puts the row's questions to the person (Options.Ask).
	Ask func(ctx context.Context, q Question) (string, error)
	// Tag tells this attempt's marks from an earlier attempt's at the
	// same row in the same session (a worker that died mid-row): marks are
	// deduplicated by id, and a lost retry's marks would read as the
	// earlier attempt's.
	Tag    string
	Logger *slog.Logger
}

// FileRow files one row as Run would, from what the log says of it: a row
// committed, unknown or failed is reported as such; one whose destructive
// step may have run is settled by the skill's verification (or reported
// unknown); the rest are filled. The first-run check and other runs' keys
// are the caller's: a hub claims each row's dedupe key before filing it.
func FileRow(ctx context.Context, j RowJob) (RowResult, error) {
	if j.Logger == nil {
		j.Logger = slog.New(slog.DiscardHandler)
	}
	e := &engine{
		Options:     Options{JS: j.JS, Plan: j.Plan, Executor: j.Executor, DryRun: j.DryRun, OnError: OnErrorSkip, Ask: j.Ask, Logger: j.Logger},
		log:         newLog(j.JS, j.Plan.RunID),
		session:     j.Session,
		earlier:     map[string]earlierRow{},
		checkFailed: map[int]RowResult{},
		firstOfKey:  map[string]int{},
		direct:      true,
		tag:         j.Tag,
	}
	e.log.synced = true
	e.workers = []*worker{{exec: j.Executor}}
	st, err := foldRow(ctx, j.JS, j.Plan.RunID, j.Row.N)
	if err != nil {
		return RowResult{}, err
	}
	e.state = &runState{rows: map[int]*rowState{j.Row.N: st}}
	return e.row(ctx, e.workers[0], j.Row)
}

// WriteResult writes a row's line of the report to the log, for the run's
// coordinator to fold. It carries no page message: a site may quote the
// row's values in one.
func WriteResult(ctx context.Context, js jetstream.JetStream, runID string, session int, tag string, rr RowResult) error {
	l := newLog(js, runID)
	l.synced = true
	return l.write(ctx, rr.N, EvResult, fmt.Sprintf("%d:result:%d%s", rr.N, session, tag), &ResultEvent{Session: session, Row: rr})
}

// ResultEvent is a row's line of the report, and the session it was
// filed in.
type ResultEvent struct {
	Session int       `msgpack:"session"`
	Row     RowResult `msgpack:"row"`
}

// Results hands fn each row's latest line of the report written for run
// runID so far, and returns the run's latest planned event (nil when none).
func Results(ctx context.Context, js jetstream.JetStream, runID string, fn func(ResultEvent)) (*Planned, error) {
	var planned *Planned
	latest := map[int]ResultEvent{}
	err := readRun(ctx, js, runID, []string{EvPlanned, EvResult}, func(_ string, row int, event string, data []byte) error {
		if event == EvPlanned {
			var p Planned
			if err := events.Decode(data, &p); err != nil {
				return err
			}
			planned = &p
			return nil
		}
		var r ResultEvent
		if err := events.Decode(data, &r); err != nil {
			return err
		}
		if r.Row.N == row {
			latest[row] = r
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read run %s: %w", runID, err)
	}
	for _, r := range latest {
		fn(r)
	}
	return planned, nil
}

// PassedDryRun says whether a dry run of this skill version passed on js.
func PassedDryRun(ctx context.Context, js jetstream.JetStream, skillID, digest string) (bool, error) {
	return dryRunPassed(ctx, js, skillID, digest)
}

// MarkDryRun records on js that a dry run of this skill version passed.
func MarkDryRun(ctx context.Context, js jetstream.JetStream, runID string, session int, skillID, digest string) error {
	l := newLog(js, runID)
	l.synced = true
	return l.write(ctx, 0, EvDryRun, fmt.Sprintf("0:dryrun:%d", session), &DryRunPassed{SkillID: skillID, SkillDigest: digest})
}

// PlanSession writes a new session of run p.RunID on js (its first, or a
// resume) and returns the session's number: a hub's run, whose rows
// workers file.
func PlanSession(ctx context.Context, js jetstream.JetStream, p *Plan, dryRun, resume bool) (int, error) {
	st, err := foldRun(ctx, js, p.RunID)
	if err != nil {
		return 0, err
	}
	switch {
	case st.planned != nil && !resume:
		return 0, &RunExistsError{RunID: p.RunID}
	case st.planned == nil && resume:
		return 0, fmt.Errorf("no run %s to resume on this hub", p.RunID)
	case st.planned != nil && (st.planned.CSV != p.CSV || st.planned.SkillDigest != p.Digest):
		return 0, fmt.Errorf("run %s was planned with another CSV or skill version; resume it with the same ones", p.RunID)
	}
	session := st.session + 1
	planned := Planned{RunID: p.RunID, SkillID: p.SkillID, SkillDigest: p.Digest, Rows: len(p.Rows), CSV: p.CSV,
		DryRun: dryRun, Session: session, At: events.Stamp(time.Now())}
	l := newLog(js, p.RunID)
	l.synced = true
	return session, l.write(ctx, 0, EvPlanned, fmt.Sprintf("0:planned:%d", session), &planned)
}
