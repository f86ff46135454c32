package hub

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
)

// Run is a run filed by a hub's workers, as its coordinator sees it: the
// machine that started it, or any that resumes it.
type Run struct {
	JS   jetstream.JetStream
	Key  *Key
	Plan *replay.Plan
	// Doc is the skill's document, as workers parse it.
	Doc                   []byte
	DryRun, Again, Resume bool
	// Refused are rows refused before the run: in the report, not filed.
	Refused []replay.RowResult
	// Progress, if set, is told after each row's result arrives.
	Progress func(done, failed, skipped, unknown int)
}

// Start plans a new session of the run on the hub and puts every row not
// yet committed or skipped on the work queue, sealed. It returns the
// session and, by row, what earlier sessions settled.
func (r *Run) Start(ctx context.Context) (session int, settled map[int]replay.RowResult, err error) {
	if err := Ensure(ctx, r.JS); err != nil {
		return 0, nil, err
	}
	p := r.Plan
	skills, err := r.JS.KeyValue(ctx, BucketSkills)
	if err != nil {
		return 0, nil, err
	}
	if err := retry(ctx, func() error {
		_, err := skills.Put(ctx, p.RunID, r.Key.seal(r.Doc, skillPlace(p.RunID)))
		return err
	}); err != nil {
		return 0, nil, fmt.Errorf("put the run's skill on the hub: %w", err)
	}
	settled = map[int]replay.RowResult{}
	if _, err := replay.Results(ctx, r.JS, p.RunID, func(ev replay.ResultEvent) {
		if o := ev.Row.Outcome; o == replay.OutcomeCommitted || o == replay.OutcomeSkipped && !r.DryRun {
			settled[ev.Row.N] = ev.Row
		}
	}); err != nil {
		return 0, nil, err
	}
	if session, err = replay.PlanSession(ctx, r.JS, p, r.DryRun, r.Resume); err != nil {
		return 0, nil, err
	}
	// Rows an earlier session left on the queue go: a row on the queue
	// twice would be taken by two workers at once.
	rows, err := r.JS.Stream(ctx, StreamRows)
	if err != nil {
		return 0, nil, err
	}
	if err := rows.Purge(ctx, jetstream.WithPurgeSubject(rowsPrefix+p.RunID)); err != nil {
		return 0, nil, fmt.Errorf("clear run %s's queued rows: %w", p.RunID, err)
	}
	for _, row := range p.Rows {
		if _, ok := settled[row.N]; ok {
			continue
		}
		values, err := json.Marshal(row.Values)
		if err != nil {
			return 0, nil, err
		}
		it := Item{Run: p.RunID, SkillID: p.SkillID, Digest: p.Digest, Row: row.N, Key: row.Key, Session: session,
			DryRun: r.DryRun, Again: r.Again, Values: r.Key.seal(values, rowPlace(p.RunID, row.N))}
		data, err := events.AppendMsgpack(nil, &it)
		if err != nil {
			return 0, nil, err
		}
		msg := &nats.Msg{Subject: rowsPrefix + p.RunID, Data: data,
			Header: nats.Header{jetstream.MsgIDHeader: []string{fmt.Sprintf("%s:%d:%d", p.RunID, row.N, session)}}}
		if err := retry(ctx, func() error { _, err := r.JS.PublishMsg(ctx, msg); return err }); err != nil {
			return 0, nil, fmt.Errorf("queue row %d: %w", row.N, err)
		}
	}
	return session, settled, nil
}

// resultsReread is how often Wait reads every result written again.
const resultsReread = 15 * time.Second

// Wait follows the workers' results until every row queued in session has
// one, and returns the run's report: settled rows as earlier sessions
// left them, refused rows, and this session's results.
func (r *Run) Wait(ctx context.Context, session int, settled map[int]replay.RowResult) (*replay.Result, error) {
	p := r.Plan
	res := &replay.Result{RunID: p.RunID}
	var mu sync.Mutex
	got := map[int]replay.RowResult{}
	var done, failed, skipped, unknown int
	count := func(rr replay.RowResult) {
		switch rr.Outcome {
		case replay.OutcomeFailed:
			failed++
		case replay.OutcomeUnknown:
			unknown++
		case replay.OutcomeSkipped:
			skipped++
		default:
			done++
		}
		if r.Progress != nil {
			r.Progress(done, failed, skipped, unknown)
		}
	}
	for _, rr := range r.Refused {
		count(rr)
	}
	var before []replay.RowResult
	for _, rr := range settled {
		rr.Step, rr.Reason = -1, "filed before this resume"
		if rr.Outcome == replay.OutcomeSkipped {
			rr.Reason = "skipped before this resume"
		}
		before = append(before, rr)
		count(rr)
	}
	want := len(p.Rows) - len(settled)
	all := make(chan struct{})
	if want == 0 {
		close(all)
	}
	cons, err := r.JS.OrderedConsumer(ctx, events.StreamReplay, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{events.ReplayFilter(p.RunID, replay.EvResult)}})
	if err != nil {
		return nil, fmt.Errorf("follow run %s's results: %w", p.RunID, err)
	}
	take := func(ev replay.ResultEvent) {
		if ev.Session != session {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if _, seen := got[ev.Row.N]; seen || want == 0 {
			got[ev.Row.N] = ev.Row // a later attempt's line replaces an earlier's
			return
		}
		got[ev.Row.N] = ev.Row
		count(ev.Row)
		if want--; want == 0 {
			close(all)
		}
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var ev replay.ResultEvent
		if events.Decode(m.Data(), &ev) == nil {
			take(ev)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("follow run %s's results: %w", p.RunID, err)
	}
	defer cc.Stop()
	// A hub node that dies can take the follow's consumer with it without
	// a word: the results written so far are read again now and then, so
	// a row filed is never waited for forever.
	for again := time.NewTicker(resultsReread); ; {
		select {
		case <-all:
			again.Stop()
		case <-again.C:
			// A read that fails is tried again at the next tick.
			_, _ = replay.Results(ctx, r.JS, p.RunID, take)
			continue
		case <-ctx.Done():
			again.Stop()
			return nil, ctx.Err()
		}
		break
	}
	mu.Lock()
	defer mu.Unlock()
	res.Rows = append(append(res.Rows, r.Refused...), before...)
	for _, rr := range got {
		res.Rows = append(res.Rows, rr)
	}
	slices.SortStableFunc(res.Rows, func(a, b replay.RowResult) int { return a.N - b.N })
	if r.DryRun && !res.Failed() {
		if err := replay.MarkDryRun(ctx, r.JS, p.RunID, session, p.SkillID, p.Digest); err != nil {
			return res, err
		}
	}
	return res, nil
}
