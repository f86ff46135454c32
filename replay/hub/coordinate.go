package hub

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
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
// machine that started it, or any that resumes it. Start begins answering
// the run's workers, and Wait (or Close) stops: a run whose coordinator
// stopped waits on the hub until a resume.
type Run struct {
	JS   jetstream.JetStream
	Key  *Key
	Plan *replay.Plan
	// Doc is the skill's document, as workers parse it.
	Doc                   []byte
	DryRun, Again, Resume bool
	// Ledger is the folder of the coordinator's own record of grants and
	// results (ledger.go), on this machine's disk: the data dir's
	// hub-ledger. Required.
	Ledger string
	// Refused are rows refused before the run: in the report, not filed.
	Refused []replay.RowResult
	// Progress, if set, is told after each row's result arrives.
	Progress func(done, failed, skipped, unknown int)
	// Ask puts the workers' questions (ask steps, passwords) to the
	// person; nil answers each that nobody can. Set before Wait.
	Ask func(ctx context.Context, q replay.Question) (string, error)
	// Notice, if set, is told once of each worker that cannot file the
	// run's rows and why (it lacks the skill's profile, or a desktop):
	// the rows wait for a worker that can.
	Notice func(worker, why string)

	ledger  *ledger
	granter *granter
	asks    *asks
	notices *notices
}

// PassedDryRun says whether a dry run of this skill version passed on the
// hub: an authentic mark of one, never one a hub user wrote.
func (r *Run) PassedDryRun(ctx context.Context) (bool, error) {
	// A cluster electing a leader answers no one for a moment: waited out.
	var passed bool
	err := retry(ctx, func() (err error) {
		passed, err = replay.PassedDryRun(ctx, r.Key.events(r.JS), r.Plan.SkillID, r.Plan.Digest)
		return err
	})
	return passed, err
}

// Start plans a new session of the run on the hub and puts every row not
// yet settled on the work queue, sealed and MACed. It returns the session
// and, by row, what earlier sessions and runs settled: from the hub's
// authentic results and from the ledger, which a purge on the hub cannot
// reach. A row the ledger says may be filed (granted before, here or to an
// earlier run of the same record, with no result) is queued to be settled,
// never filled blindly.
func (r *Run) Start(ctx context.Context) (session int, settled map[int]replay.RowResult, err error) {
	if r.Ledger == "" {
		return 0, nil, errors.New("hub run: no ledger folder (Run.Ledger)")
	}
	if err := retry(ctx, func() error { return Ensure(ctx, r.JS) }); err != nil {
		return 0, nil, err
	}
	p := r.Plan
	js := r.Key.events(r.JS)
	var hist history
	if !r.DryRun {
		var entries []entry
		r.ledger, entries, err = openLedger(r.Ledger, r.Key.ID(), p.SkillID)
		if err != nil {
			return 0, nil, err
		}
		hist = readHistory(entries, p.RunID)
	}
	defer func() {
		if err != nil {
			r.Close()
		}
	}()
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
	if _, err := replay.Results(ctx, js, p.RunID, func(ev replay.ResultEvent) {
		if o := ev.Row.Outcome; o == replay.OutcomeCommitted || o == replay.OutcomeUnknown && !r.DryRun || o == replay.OutcomeSkipped && !r.DryRun {
			settled[ev.Row.N] = before(ev.Row)
		}
	}); err != nil {
		return 0, nil, err
	}
	if session, err = replay.PlanSession(ctx, js, p, r.DryRun, r.Resume); err != nil {
		return 0, nil, err
	}
	queue := r.settle(hist, settled)
	// Rows an earlier session left on the queue go: a row on the queue
	// twice would be taken by two workers at once.
	rows, err := r.JS.Stream(ctx, StreamRows)
	if err != nil {
		return 0, nil, err
	}
	if err := rows.Purge(ctx, jetstream.WithPurgeSubject(rowsPrefix+p.RunID)); err != nil {
		return 0, nil, fmt.Errorf("clear run %s's queued rows: %w", p.RunID, err)
	}
	if !r.DryRun {
		r.granter = &granter{k: r.Key, nc: r.JS.Conn(), ledger: r.ledger, run: p.RunID, session: session, rows: queue}
		if err := r.granter.serve(); err != nil {
			return 0, nil, err
		}
	}
	if err := r.serveAsks(); err != nil {
		return 0, nil, err
	}
	if err := r.serveNotices(); err != nil {
		return 0, nil, err
	}
	obs, err := r.JS.ObjectStore(ctx, events.ObjectsHubFiles)
	if err != nil {
		return 0, nil, fmt.Errorf("the hub's upload files: %w", err)
	}
	for _, row := range p.Rows {
		if _, ok := settled[row.N]; ok {
			continue
		}
		values, err := json.Marshal(row.Values)
		if err != nil {
			return 0, nil, err
		}
		files, err := r.putFiles(ctx, obs, row)
		if err != nil {
			return 0, nil, err
		}
		it := Item{Run: p.RunID, SkillID: p.SkillID, Digest: p.Digest, Row: row.N, Key: row.Key, Session: session,
			DryRun: r.DryRun, Again: r.Again, Values: r.Key.seal(values, rowPlace(p.RunID, row.N)), Files: files}
		data, err := events.AppendMsgpack(nil, &it)
		if err != nil {
			return 0, nil, err
		}
		msg := &nats.Msg{Subject: rowsPrefix + p.RunID, Data: data,
			Header: nats.Header{jetstream.MsgIDHeader: []string{fmt.Sprintf("%s:%d:%d", p.RunID, row.N, session)}}}
		r.Key.stamp(msg, kindRow)
		if err := retry(ctx, func() error { _, err := r.JS.PublishMsg(ctx, msg); return err }); err != nil {
			return 0, nil, fmt.Errorf("queue row %d: %w", row.N, err)
		}
	}
	return session, settled, nil
}

// before is a row's result from an earlier session, as this one reports it.
func before(rr replay.RowResult) replay.RowResult {
	rr.Step = -1
	switch rr.Outcome {
	case replay.OutcomeCommitted:
		rr.Reason = "filed before this resume"
	case replay.OutcomeSkipped:
		rr.Reason = "skipped before this resume"
	case replay.OutcomeUnknown:
		rr.Reason = "may have been filed before this resume: check it"
	}
	return rr
}

// settle adds to settled the rows the ledger settles (hist), and the rows
// of the plan that repeat an earlier row's record, and returns what the
// coordinator knows of each row left to queue.
func (r *Run) settle(hist history, settled map[int]replay.RowResult) map[int]*rowGrant {
	queue := map[int]*rowGrant{}
	first := map[string]int{}
	dedupe := !r.Again && !r.DryRun
	for _, row := range r.Plan.Rows {
		if _, ok := first[row.Key]; !ok && row.Key != "" {
			first[row.Key] = row.N
		} else if row.Key != "" && dedupe {
			if _, ok := settled[row.N]; !ok {
				settled[row.N] = replay.RowResult{N: row.N, Outcome: replay.OutcomeSkipped, Step: -1,
					Reason: fmt.Sprintf("the same record as row %d (the skill's dedupe key is equal): filed once", first[row.Key]), Hint: replay.HintAgain}
			}
		}
		if _, ok := settled[row.N]; ok {
			continue
		}
		g := &rowGrant{key: row.Key}
		if h := hist.rows[row.N]; h != nil && !r.DryRun {
			switch h.outcome {
			case replay.OutcomeCommitted, replay.OutcomeSkipped, replay.OutcomeUnknown:
				settled[row.N] = before(replay.RowResult{N: row.N, Outcome: h.outcome})
				continue
			}
			if h.maybe {
				g.maybe = fmt.Sprintf("a worker was granted it in session %d and gave no result", h.session)
			}
			if h.grant != "" {
				// That worker may still be filing it (this coordinator
				// stopped, the worker did not): the grant stays its own
				// until it shows no sign of life for aliveFor.
				g.grant, _ = hex.DecodeString(h.grant)
				g.alive = time.Now()
				if h.before {
					g.before = g.maybe
				}
			}
		}
		if row.Key != "" && dedupe {
			if run, ok := hist.filed[row.Key]; ok {
				settled[row.N] = replay.RowResult{N: row.N, Outcome: replay.OutcomeSkipped, Step: -1,
					Reason: "already filed by run " + run, Hint: replay.HintAgain}
				continue
			}
			if run, ok := hist.began[row.Key]; ok && g.maybe == "" {
				g.maybe = "run " + run + " began filing this record and never confirmed it"
			}
		}
		queue[row.N] = g
	}
	return queue
}

// Close stops answering the run's workers and closes its ledger. Wait
// calls it; a second call does nothing.
func (r *Run) Close() {
	if r.granter != nil {
		r.granter.stop()
	}
	if r.asks != nil {
		r.asks.stop()
	}
	if r.notices != nil {
		r.notices.stop()
	}
	if r.ledger != nil {
		_ = r.ledger.Close()
	}
}

// How often Wait reads every result written again, and looks whether the
// run's rows are still on the queue. Variables for the tests.
var (
	resultsReread = 15 * time.Second
	queueCheck    = Lease / 3
)

// Wait follows the workers' authentic results until every row queued in
// session has one, and returns the run's report: settled rows as earlier
// sessions left them, refused rows, and this session's results. A row
// whose message left the queue without a result (a hub user may have
// purged it) is reported not run, or unknown when a worker was granted it
// and has shown no sign of life for a Lease: never committed, never left
// waited for. It stops answering the run's workers when it returns.
func (r *Run) Wait(ctx context.Context, session int, settled map[int]replay.RowResult) (*replay.Result, error) {
	defer r.Close()
	if r.asks != nil {
		close(r.asks.ready) // r.Ask is set: the questions go through
	}
	p := r.Plan
	js := r.Key.events(r.JS)
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
		before = append(before, rr)
		count(rr)
	}
	pending := map[int]bool{}
	keys := map[int]string{}
	for _, row := range p.Rows {
		if _, ok := settled[row.N]; !ok {
			pending[row.N] = true
			keys[row.N] = row.Key
		}
	}
	all := make(chan struct{})
	if len(pending) == 0 {
		close(all)
	}
	var ledgerErr error
	// settle takes row rr.N's line of the report: the first settles it, a
	// later attempt's replaces it.
	settle := func(rr replay.RowResult) {
		_, seen := got[rr.N]
		if !seen && !pending[rr.N] {
			return // not a row this session queued
		}
		if r.ledger != nil {
			if err := r.ledger.add(entry{Run: p.RunID, Row: rr.N, Session: session, Key: keys[rr.N], State: rr.Outcome}); err != nil && ledgerErr == nil {
				ledgerErr = err
			}
		}
		if r.granter != nil {
			r.granter.settled(rr.N)
		}
		got[rr.N] = rr
		if seen {
			return
		}
		delete(pending, rr.N)
		count(rr)
		if len(pending) == 0 {
			close(all)
		}
	}
	take := func(ev replay.ResultEvent) {
		if ev.Session != session {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		settle(ev.Row)
	}
	cons, err := js.OrderedConsumer(ctx, events.StreamReplay, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{events.ReplayFilter(p.RunID, replay.EvResult)}})
	if err != nil {
		return nil, fmt.Errorf("follow run %s's results: %w", p.RunID, err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		var ev replay.ResultEvent
		// One that failed its MAC has no body, and decodes to nothing.
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
	again := time.NewTicker(resultsReread)
	defer again.Stop()
	check := time.NewTicker(queueCheck)
	defer check.Stop()
	for waiting := true; waiting; {
		select {
		case <-all:
			waiting = false
		case <-again.C:
			// A read that fails is tried again at the next tick.
			_, _ = replay.Results(ctx, js, p.RunID, take)
		case <-check.C:
			r.lost(ctx, js, take, &mu, pending, settle)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	r.dropFiles(ctx)
	mu.Lock()
	defer mu.Unlock()
	res.Rows = append(append(res.Rows, r.Refused...), before...)
	for _, rr := range got {
		res.Rows = append(res.Rows, rr)
	}
	slices.SortStableFunc(res.Rows, func(a, b replay.RowResult) int { return a.N - b.N })
	if ledgerErr != nil {
		return res, fmt.Errorf("the coordinator's ledger: %w (a resume from this machine may report rows unknown that were settled)", ledgerErr)
	}
	if r.DryRun && !res.Failed() {
		if err := replay.MarkDryRun(ctx, js, p.RunID, session, p.SkillID, p.Digest); err != nil {
			return res, err
		}
	}
	return res, nil
}

// lost reports the pending rows whose messages are gone from the queue
// without a result: when none of the run's rows is on the queue, the
// results are read again (a worker writes a row's result before it takes
// the row off the queue), and the rows still pending are lost.
func (r *Run) lost(ctx context.Context, js jetstream.JetStream, take func(replay.ResultEvent), mu *sync.Mutex, pending map[int]bool, settle func(replay.RowResult)) {
	rows, err := r.JS.Stream(ctx, StreamRows)
	if err != nil {
		return
	}
	subject := rowsPrefix + r.Plan.RunID
	info, err := rows.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil || info.State.Subjects[subject] > 0 {
		return
	}
	if _, err := replay.Results(ctx, js, r.Plan.RunID, take); err != nil {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	var gone []int
	for n := range pending {
		gone = append(gone, n)
	}
	slices.Sort(gone)
	for _, n := range gone {
		if r.granter == nil {
			settle(replay.RowResult{N: n, Outcome: replay.OutcomeFailed, Step: -1,
				Reason: "not run: its message left the hub's queue before a worker filled it (a hub user may have removed it): run it again"})
			continue
		}
		if rr, ok := r.granter.lost(n); ok {
			settle(rr)
		}
	}
}
