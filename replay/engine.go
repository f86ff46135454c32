package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// Row outcomes in a run's Result.
const (
	OutcomeCommitted = "committed" // filed (or, without a destructive step, done) and read back
	OutcomeFailed    = "failed"
	OutcomeSkipped   = "skipped"
	OutcomeUnknown   = "unknown" // may have been filed: check it
	OutcomeDryRun    = "dry_run" // filled, not submitted
)

// What to do when a row fails.
const (
	// OnErrorAuto (the default) goes on past a row that failed and stops
	// taking rows when failures look systematic (see systematic).
	OnErrorAuto = "auto"
	// OnErrorStop stops taking rows at the first that failed.
	OnErrorStop = "stop"
	// OnErrorSkip goes on past every row that failed: it never stops.
	OnErrorSkip = "skip"
)

// stepTimeout bounds the wait for one step's outcome; the executor's own
// waits (a page load, an assert) are shorter.
const stepTimeout = 3 * time.Minute

// Options steer a run.
type Options struct {
	JS       jetstream.JetStream
	Plan     *Plan
	Executor Executor
	// Resume continues the run Plan.RunID: committed rows are skipped, and
	// a row that may have been filed without its mark is verified or
	// reported unknown, never redone blindly.
	Resume bool
	// Again fills rows even when an earlier run of the skill committed
	// their dedupe key.
	Again bool
	// DryRun fills every row and submits none.
	DryRun bool
	// Yes runs a destructive skill unattended without the check of its
	// first rows, if a dry run of this version passed before.
	Yes bool
	// Confirm shows the person the first rows, filled and not submitted,
	// with a snapshot of each (empty when none could be saved), and returns
	// their answer. Nil means no one can answer: only Yes runs.
	Confirm func(ctx context.Context, rows []int, snapshots []string) (bool, error)
	// SnapshotDir is where a dry-run row's filled page is saved; empty
	// saves none.
	SnapshotDir string
	// OnError is OnErrorAuto (the default), OnErrorStop or OnErrorSkip.
	OnError string
	// ResumeCommand is the command that resumes this run, named when it
	// stops early under OnErrorAuto; empty names --resume with the run id.
	ResumeCommand string
	// Refused are rows the caller refused before the run (a cell that does
	// not fit its parameter): they are in the report, skipped, with why.
	Refused []RowResult
	// Progress, if set, is told after each row.
	Progress func(done, failed, skipped, unknown int)
	// StepProgress, if set, is told before each step of a row: worker
	// (0 for Executor, i for Others[i-1]) is at step (0-based) of steps of
	// row n; row 0 when the worker has no row left. A long row then shows
	// where it is.
	StepProgress func(worker, row, step, steps int)
	// Ask puts an ask step's question, or a secret field's, to the person
	// and returns the answer; its ctx ends at the step's timeout. Nil
	// means nobody can answer: such a row fails at that step.
	Ask func(ctx context.Context, q Question) (string, error)
	// Others are more executors, each filing rows at the same time as
	// Executor (--parallel), each served by its own ServeWorker (Others[i]
	// as worker i+1). The first rows' check runs on Executor alone.
	Others []Executor
	// More, if set, makes the run open tabs itself (--parallel auto): it
	// starts on Executor alone and, while rows per second keep rising with
	// each tab, asks More for worker n's executor, served as Others' are,
	// up to MostTabs in all (default 16). Result.Tabs says how many it
	// settled on and why.
	More     func(ctx context.Context, n int) (Executor, error)
	MostTabs int
	Logger   *slog.Logger
}

// RowResult is one row's line of the report.
type RowResult struct {
	N       int    `msgpack:"n"`
	Outcome string `msgpack:"outcome"`
	Step    int    `msgpack:"step"` // the failing step's index (from 0), -1 for none
	Action  string `msgpack:"action,omitempty"`
	Reason  string `msgpack:"reason,omitempty"`
	// Hint is what the front end can offer beyond Reason (see Hint).
	Hint Hint   `msgpack:"hint,omitempty"`
	Via  string `msgpack:"via,omitempty"`
	// Notes are what the browser did around the row's steps (requests
	// blocked, dialogs accepted, pages refused); they name no value.
	Notes []string `msgpack:"notes,omitempty"`
	// Files are the row's saved artifacts and Output the download kept
	// as its output: named by the site, they stay out of the log.
	// Key is a row's dedupe key, set on a row refused before the run so
	// the engine can tell one filed before (by hand, say) from one never
	// filed.
	Key    string   `msgpack:"-"`
	Files  []string `msgpack:"-"`
	Output string   `msgpack:"-"`
	// Refused says a site refused a page of the row.
	Refused bool `msgpack:"refused,omitempty"`
	// Healed says what a model changed for the row's steps to go through;
	// ModelCalls and Tokens count what the model cost the row.
	Healed     []string `msgpack:"healed,omitempty"`
	ModelCalls int      `msgpack:"model_calls,omitempty"`
	Tokens     int      `msgpack:"tokens,omitempty"`
	// Proofs say what proves the row filed as the CSV says (see proofsOf).
	Proofs []string `msgpack:"proofs,omitempty"`
}

// Result is a run's report.
type Result struct {
	RunID string
	Rows  []RowResult
	// Stopped says why the run took no more rows before the end, under
	// OnErrorAuto or OnErrorStop: the rows not run say it too. Empty when
	// it took every row (or broke: Run's error says why).
	Stopped string
	// StoppedHint is Stopped's hint, as the rows not run carry it.
	StoppedHint Hint
	// Tabs is how many tabs a run that opened its own (Options.More)
	// settled on, and TabsLimit what stopped it adding more (Limit...);
	// empty when the rows ran out first.
	Tabs      int
	TabsLimit string
}

// Failed says whether any row failed or is unknown.
func (r *Result) Failed() bool {
	for _, row := range r.Rows {
		if row.Outcome == OutcomeFailed || row.Outcome == OutcomeUnknown {
			return true
		}
	}
	return false
}

// ErrNotConfirmed is returned when the person did not confirm the checked
// rows: nothing was submitted.
var ErrNotConfirmed = errors.New("the checked rows were not confirmed; nothing was submitted")

// ErrNeedsDryRun: a run told to go unattended (Options.Yes) of a skill
// version no dry run has passed yet. Nothing was filed.
var ErrNeedsDryRun = errors.New("this skill version has not passed a dry run yet: run it once as a dry run (a few rows are enough), or let a person check its first rows")

// ErrNeedsConfirmation: a skill that submits forms, whose first rows a
// person must check, in a run with no one to ask (Options.Confirm is nil).
var ErrNeedsConfirmation = errors.New("this skill submits forms and its first rows must be checked by a person, and no one can be asked here")

// RunExistsError: a new run was given the id of a run already planned;
// resume it, or start a new run.
type RunExistsError struct{ RunID string }

func (e *RunExistsError) Error() string {
	return fmt.Sprintf("run %s exists: resume it, or start a new run", e.RunID)
}

// engine is one run in progress.
type engine struct {
	Options
	log     log
	pace    pace // slows rows down while sites refuse them
	session int
	state   *runState
	earlier map[string]earlierRow
	// checkFailed are rows that failed while filled for the person's
	// check: reported once, never run again in this session.
	checkFailed map[int]RowResult
	// firstOfKey is the first row of the plan with each dedupe key: a
	// later row with the same key is the same record.
	firstOfKey map[string]int
	workers    []*worker
	wmu        sync.RWMutex // workers, which a run opening its own tabs adds to
	// direct runs steps on the worker's executor in this process, with no
	// command on the log: a hub's worker, whose marks are the record.
	direct bool
	// tag tells this attempt's marks from another's in the same session.
	tag string

	mu                             sync.Mutex
	seq                            int
	done, failed, skipped, unknown int
}

// markID is the msg id of a row's mark: one per row, event and session,
// and per attempt (tag) when workers of a hub may each attempt the row.
func (e *engine) markID(row int, event string) string {
	return fmt.Sprintf("%d:%s:%d%s", row, event, e.session, e.tag)
}

// worker is one executor filing rows, with the outcomes of its commands.
type worker struct {
	id       int
	exec     Executor
	outcomes chan StepDone
}

// worker returns worker i, or nil: a run opening its own tabs adds
// workers while outcomes arrive.
func (e *engine) worker(i int) *worker {
	e.wmu.RLock()
	defer e.wmu.RUnlock()
	if i < 0 || i >= len(e.workers) {
		return nil
	}
	return e.workers[i]
}

// addWorker opens worker n (Options.More) and adds it.
func (e *engine) addWorker(ctx context.Context) (*worker, error) {
	e.wmu.Lock()
	n := len(e.workers)
	e.wmu.Unlock()
	x, err := e.More(ctx, n)
	if err != nil {
		return nil, err
	}
	w := &worker{id: n, exec: x, outcomes: make(chan StepDone, 16)}
	e.wmu.Lock()
	e.workers = append(e.workers, w)
	e.wmu.Unlock()
	return w, nil
}

// Run runs (or resumes) a plan and returns its report. Its error is for a
// run that could not go on (a broken executor, the log unreachable, a
// refused confirmation); failed rows are in the report.
func Run(ctx context.Context, o Options) (*Result, error) {
	e, res, err := run(ctx, o)
	if e != nil {
		// Whatever the run wrote without waiting is stored, or the run
		// says it is not.
		if ferr := e.log.flush(ctx); ferr != nil && err == nil {
			err = ferr
		}
	}
	return res, err
}

func run(ctx context.Context, o Options) (*engine, *Result, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	switch o.OnError {
	case "":
		o.OnError = OnErrorAuto
	case OnErrorAuto, OnErrorStop, OnErrorSkip:
	default:
		return nil, nil, fmt.Errorf("on error %q: want %s, %s or %s", o.OnError, OnErrorAuto, OnErrorStop, OnErrorSkip)
	}
	p := o.Plan
	e := &engine{Options: o, log: newLog(o.JS, p.RunID), checkFailed: map[int]RowResult{}, firstOfKey: map[string]int{}}
	for i, x := range append([]Executor{o.Executor}, o.Others...) {
		e.workers = append(e.workers, &worker{id: i, exec: x, outcomes: make(chan StepDone, 16)})
	}
	for _, r := range p.Rows {
		if _, seen := e.firstOfKey[r.Key]; r.Key != "" && !seen {
			e.firstOfKey[r.Key] = r.N
		}
	}
	var err error
	if e.state, err = foldRun(ctx, o.JS, p.RunID); err != nil {
		return e, nil, err
	}
	switch {
	case e.state.planned != nil && !o.Resume:
		return e, nil, &RunExistsError{RunID: p.RunID}
	case e.state.planned == nil && o.Resume:
		return e, nil, fmt.Errorf("no run %s to resume", p.RunID)
	case o.Resume && (e.state.planned.CSV != p.CSV || e.state.planned.SkillDigest != p.Digest):
		return e, nil, fmt.Errorf("run %s was planned with another CSV or skill version; resume it with the same ones", p.RunID)
	}
	if e.earlier, err = earlierKeys(ctx, o.JS, p.SkillID, p.RunID); err != nil {
		return e, nil, err
	}
	e.session = e.state.session + 1
	planned := Planned{RunID: p.RunID, SkillID: p.SkillID, SkillDigest: p.Digest, Rows: len(p.Rows), CSV: p.CSV,
		DryRun: o.DryRun, Session: e.session, At: events.Stamp(time.Now())}
	if err := e.log.write(ctx, 0, EvPlanned, fmt.Sprintf("0:planned:%d", e.session), &planned); err != nil {
		return e, nil, err
	}
	stop, err := consume(ctx, o.JS, p.RunID, EvStep, func(_ int, data []byte) {
		var d StepDone
		if events.Decode(data, &d) == nil && d.Session == e.session {
			if w := e.worker(d.Worker); w != nil {
				w.outcomes <- d
			}
		}
	})
	if err != nil {
		return e, nil, err
	}
	defer stop()

	res := &Result{RunID: p.RunID}
	// Every row of the CSV is in the report, refused ones included, in
	// the CSV's order.
	defer func() { slices.SortStableFunc(res.Rows, func(a, b RowResult) int { return a.N - b.N }) }()
	for _, rr := range o.Refused {
		// A row filed before stays filed before, whatever else refuses
		// its cells now (a row filed by hand while demonstrating, whose
		// cells the skill reads otherwise).
		if prior, ok := e.earlier[rr.Key]; ok && rr.Key != "" && prior.committed && !e.Again {
			rr = filedRefused(rr, filedBy(prior))
		}
		rr.Key = ""
		res.Rows = append(res.Rows, rr)
		e.count(rr)
	}
	rows := p.Rows
	if !o.DryRun && p.destructive() {
		if err := e.check(ctx, res); err != nil {
			e.notRun(res, rows, "not run: the check of the first rows stopped the run", HintNone)
			return e, res, err
		}
	}
	if err := e.fillRows(ctx, rows, res); err != nil {
		return e, res, err
	}
	if o.DryRun && !res.Failed() {
		if err := e.log.write(ctx, 0, EvDryRun, fmt.Sprintf("0:dryrun:%d", e.session), &DryRunPassed{SkillID: p.SkillID, SkillDigest: p.Digest}); err != nil {
			return e, res, err
		}
	}
	return e, res, nil
}

// fillRows fills rows, each worker taking the next row not taken as it
// finishes one. A failed row under --on-error stop, failures that look
// systematic under --on-error auto, or a broken executor, stop the taking:
// rows under way finish, the rest are reported not run.
func (e *engine) fillRows(ctx context.Context, rows []Row, res *Result) error {
	var (
		mu      sync.Mutex
		next    int
		stopped string // why no more rows are taken
		hint    Hint   // stopped's hint
		broke   error
		filled  []RowResult // the rows this session filled, as they finished
	)
	take := func() (Row, bool) {
		mu.Lock()
		defer mu.Unlock()
		if stopped != "" || next >= len(rows) {
			return Row{}, false
		}
		next++
		return rows[next-1], true
	}
	stop := func(why string, h Hint, err error) {
		mu.Lock()
		defer mu.Unlock()
		if stopped == "" {
			stopped, hint, broke = why, h, err
		}
	}
	add := func(rr RowResult) {
		mu.Lock()
		res.Rows = append(res.Rows, rr)
		mu.Unlock()
		e.count(rr)
	}
	// judge counts a row this session filled toward --on-error auto's
	// rule, and stops the taking when the failures look systematic.
	judge := func(rr RowResult) {
		if e.OnError != OnErrorAuto {
			return
		}
		mu.Lock()
		filled = append(filled, rr)
		why := systematic(filled, e.Plan.Skill.Steps)
		mu.Unlock()
		if why != "" {
			stop(e.stoppedBecause(why), HintOnErrorAuto, nil)
		}
	}
	var auto *autoTabs
	if e.More != nil {
		auto = newAutoTabs(cmp.Or(e.MostTabs, 16), time.Now, cpuTimes)
		defer func() { res.Tabs, res.TabsLimit = auto.result() }()
	}
	var wg sync.WaitGroup
	var work func(w *worker)
	// grow opens another tab when --parallel auto's window says so.
	grow := func(refused bool) {
		mu.Lock()
		left := len(rows) - next
		if stopped != "" {
			left = 0
		}
		mu.Unlock()
		if auto == nil || !auto.rowDone(refused, left) {
			return
		}
		w, err := e.addWorker(ctx)
		if err != nil {
			// The run goes on with the tabs it has.
			auto.cannot(LimitTab)
			e.Logger.Warn("replay: another tab did not open; the run goes on with the tabs it has", "run_id", e.Plan.RunID, "err", err)
			return
		}
		wg.Go(func() { work(w) })
	}
	work = func(w *worker) {
		defer e.stepProgress(w, 0, 0)
		for {
			r, ok := take()
			if !ok {
				return
			}
			if rr, ok := e.checkFailed[r.N]; ok {
				add(rr)
				judge(rr) // filled for the check, in this session
				continue
			}
			if err := e.pace.wait(ctx); err != nil {
				stop("not run: the run was stopped", HintNone, err)
				return
			}
			rr, filledNow, err := e.rowFilled(ctx, w, r)
			if err != nil {
				// The row may have been filed when the run broke: say
				// so, and that the rest did not run. A resume settles
				// them.
				add(RowResult{N: r.N, Outcome: OutcomeUnknown, Step: -1, Reason: "the run stopped while this row was being filled: resume it to settle the row"})
				stop("not run: the run stopped at row "+strconv.Itoa(r.N), HintNone, err)
				return
			}
			add(rr)
			if rr.Refused {
				e.pace.refused()
			} else {
				e.pace.passed()
			}
			if rr.Outcome == OutcomeFailed && e.OnError == OnErrorStop {
				stop(fmt.Sprintf("not run: the run stopped at row %d", r.N), HintOnErrorStop, nil)
			}
			if filledNow {
				judge(rr)
				grow(rr.Refused)
			}
		}
	}
	e.wmu.RLock()
	first := slices.Clone(e.workers)
	e.wmu.RUnlock()
	for _, w := range first {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
	if stopped != "" {
		e.notRun(res, rows, stopped, hint)
		if broke == nil {
			res.Stopped, res.StoppedHint = strings.TrimPrefix(stopped, "not run: "), hint
		}
	}
	return broke
}

// stoppedBecause is the reason of the rows not run when OnErrorAuto
// stopped the run because of why: what to do, and the command that
// resumes the run (rows committed are not filed again; the failed ones
// and the rest are).
func (e *engine) stoppedBecause(why string) string {
	resume := e.ResumeCommand
	if resume == "" {
		resume = e.Plan.RunID + ", with the same skill and CSV"
	}
	return "not run: " + why + ": " + Systematic + "; fix the cause, then resume the run: " + resume
}

// stepProgress tells StepProgress that w is at step of row n (0: none).
func (e *engine) stepProgress(w *worker, n, step int) {
	if e.StepProgress != nil {
		e.StepProgress(w.id, n, step, len(e.Plan.Skill.Steps))
	}
}

// notRun reports the rows of rows not yet in res as skipped, with why:
// every row of the CSV is in the report, even of a run that stopped early.
func (e *engine) notRun(res *Result, rows []Row, why string, h Hint) {
	in := map[int]bool{}
	for _, r := range res.Rows {
		in[r.N] = true
	}
	for _, r := range rows {
		if !in[r.N] {
			rr := RowResult{N: r.N, Outcome: OutcomeSkipped, Step: -1, Reason: why, Hint: h}
			res.Rows = append(res.Rows, rr)
			e.count(rr)
		}
	}
}

func (e *engine) count(rr RowResult) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch rr.Outcome {
	case OutcomeFailed:
		e.failed++
	case OutcomeUnknown:
		e.unknown++
	case OutcomeSkipped:
		e.skipped++
	default:
		e.done++
	}
	if e.Progress != nil {
		e.Progress(e.done, e.failed, e.skipped, e.unknown)
	}
}

// check is SPEC 11's first-run check of a destructive skill: its first two
// pending rows are filled, not submitted, and shown to the person, who
// confirms before anything is filed. --yes skips it only for a version that
// passed a dry run before.
func (e *engine) check(ctx context.Context, res *Result) error {
	passed, err := dryRunPassed(ctx, e.JS, e.Plan.SkillID, e.Plan.Digest)
	if err != nil {
		return err
	}
	if e.Yes && !passed {
		return ErrNeedsDryRun
	}
	if passed {
		return nil // checked once for this version: a resume or a later run never asks again
	}
	if e.Confirm == nil {
		return ErrNeedsConfirmation
	}
	var rows []int
	var snaps []string
	var tried []RowResult // the rows filled for the check, failed or shown, for --on-error auto
	for _, r := range e.Plan.Rows {
		if len(rows) == 2 {
			break
		}
		if st := e.state.rows[r.N]; st != nil && (st.committed || st.started) {
			continue
		}
		if _, filed := e.earlier[r.Key]; filed && !e.Again {
			continue // skipped anyway: not a row to show
		}
		rr, err := e.fill(ctx, e.workers[0], r, true)
		if err != nil {
			return err
		}
		if rr.Outcome == OutcomeFailed {
			if e.OnError == OnErrorStop {
				res.Rows = append(res.Rows, rr)
				e.count(rr)
				return fmt.Errorf("row %d failed while being checked (%s); fix the skill or the row and run again", r.N, rr.Reason)
			}
			// --on-error skip or auto: the row fails alone, nothing of it
			// was submitted, and the next one is shown instead, unless
			// under auto the failures look systematic.
			e.checkFailed[r.N] = rr
			if e.OnError == OnErrorAuto {
				tried = append(tried, rr)
				if why := checkStops(tried, e.Plan.Skill.Steps); why != "" {
					for _, f := range e.checkFailed {
						res.Rows = append(res.Rows, f)
						e.count(f)
					}
					return &CheckStoppedError{Why: why, Row: r.N, Reason: rr.Reason}
				}
			}
			continue
		}
		tried = append(tried, RowResult{N: r.N, Outcome: OutcomeDryRun, Step: -1})
		rows = append(rows, r.N)
		snap := ""
		if e.SnapshotDir != "" {
			snap = filepath.Join(e.SnapshotDir, fmt.Sprintf("%s-row-%d.png", e.Plan.RunID, r.N))
			if err := e.Executor.Snapshot(ctx, snap); err != nil {
				e.Logger.Warn("no snapshot of the checked row", "row", r.N, "err", err)
				snap = ""
			}
		}
		snaps = append(snaps, snap)
	}
	if len(rows) == 0 {
		return nil
	}
	ok, err := e.Confirm(ctx, rows, snaps)
	if err != nil {
		return err
	}
	if !ok {
		return ErrNotConfirmed
	}
	return e.log.write(ctx, 0, EvDryRun, fmt.Sprintf("0:dryrun:%d", e.session), &DryRunPassed{SkillID: e.Plan.SkillID, SkillDigest: e.Plan.Digest})
}

// row decides what to do with one row from what the log says of it.
func (e *engine) row(ctx context.Context, w *worker, r Row) (RowResult, error) {
	rr, _, err := e.rowFilled(ctx, w, r)
	return rr, err
}

// rowFilled is row, and says whether this session filled the row (rather
// than reporting it from the log, skipping it or settling it): only such
// rows count toward --on-error auto's rule.
func (e *engine) rowFilled(ctx context.Context, w *worker, r Row) (RowResult, bool, error) {
	st := e.state.rows[r.N]
	if st == nil {
		st = &rowState{}
	}
	switch {
	case st.committed:
		return RowResult{N: r.N, Outcome: OutcomeCommitted, Step: -1, Reason: "committed before this resume"}, false, nil
	case st.unknown:
		return RowResult{N: r.N, Outcome: OutcomeUnknown, Step: -1, Reason: "may have been filed when the run stopped: check it"}, false, nil
	case st.failed != nil && !st.failed.Before:
		return RowResult{N: r.N, Outcome: OutcomeFailed, Step: st.failed.Index, Action: st.failed.Action, Reason: st.failed.Reason}, false, nil
	case st.inFlight():
		return e.settle(ctx, w, r, "the run stopped during this row's submit")
	}
	if first, ok := e.firstOfKey[r.Key]; ok && r.Key != "" && first != r.N && !e.Again && !e.DryRun {
		return RowResult{N: r.N, Outcome: OutcomeSkipped, Step: -1,
			Reason: fmt.Sprintf("the same record as row %d (the skill's dedupe key is equal): filed once", first), Hint: HintAgain}, false, nil
	}
	if prior, ok := e.earlier[r.Key]; ok && !e.Again && !e.DryRun {
		if prior.committed {
			return RowResult{N: r.N, Outcome: OutcomeSkipped, Step: -1, Reason: "already filed by " + filedBy(prior), Hint: HintAgain}, false, nil
		}
		// Another run began filing this row and never confirmed it: it
		// is never filed again blindly.
		return e.settle(ctx, w, r, "run "+prior.run+" began filing this row and never confirmed it")
	}
	rr, err := e.fill(ctx, w, r, e.DryRun)
	return rr, true, err
}

// filedBy names who filed a row before: a run, or the person by hand in a
// recording.
func filedBy(prior earlierRow) string {
	if rec, ok := strings.CutPrefix(prior.run, HandRunPrefix); ok {
		return "hand in recording " + rec
	}
	return "run " + prior.run
}

// settle decides a row whose destructive step may have run without its
// commit mark (why says where): the skill's verification tells, else the
// person must. It says whether it filled the row (verified not filed).
func (e *engine) settle(ctx context.Context, w *worker, r Row, why string) (RowResult, bool, error) {
	v, has, err := e.Plan.verification(r.N)
	noVerify := "the skill has no verify section"
	if err != nil {
		// This row's values make the verify section unusable: the row
		// cannot be proved either way.
		has, noVerify = false, "the skill's verify section cannot check it ("+err.Error()+")"
	}
	mark := RowMark{Row: r.N, Key: r.Key, SkillID: e.Plan.SkillID}
	if !has {
		mark.Reason = why + ", and " + noVerify
		if err := e.log.write(ctx, r.N, EvUnknown, e.markID(r.N, "unknown"), &mark); err != nil {
			return RowResult{}, false, err
		}
		return RowResult{N: r.N, Outcome: OutcomeUnknown, Step: -1,
			Reason: "may have been filed: check it (" + mark.Reason + ")", Hint: HintAgainAnyway}, false, nil
	}
	filed, err := w.exec.Verify(ctx, v)
	if err != nil {
		return RowResult{}, false, fmt.Errorf("verify row %d: %w", r.N, err)
	}
	if !filed {
		e.Logger.Info("row not filed before; filling it", "row", r.N)
		rr, err := e.fill(ctx, w, r, false)
		return rr, true, err
	}
	mark.Verified = true
	if err := e.log.write(ctx, r.N, EvCommitted, e.markID(r.N, "committed"), &mark); err != nil {
		return RowResult{}, false, err
	}
	return RowResult{N: r.N, Outcome: OutcomeCommitted, Step: -1, Reason: "filed before (" + why + "; verified on the site)"}, false, nil
}

// fill runs every step of a row. The row's dedupe key is written before
// its first destructive step, and the row committed after the last step
// read back: a crash between the two leaves a row to settle, never to redo.
// A step that fails once a destructive step has begun leaves the row
// unknown (it may be filed), unless the executor proves nothing was.
func (e *engine) fill(ctx context.Context, w *worker, r Row, dry bool) (RowResult, error) {
	defer e.Plan.answers.Delete(r.N)
	started := false
	via := ""
	var kept RowResult
	done := func(rr RowResult) (RowResult, error) {
		rr.Notes, rr.Files, rr.Output, rr.Refused = kept.Notes, kept.Files, kept.Output, kept.Refused
		rr.Healed, rr.ModelCalls, rr.Tokens = kept.Healed, kept.ModelCalls, kept.Tokens
		if rr.Outcome == OutcomeCommitted {
			rr.Proofs = kept.Proofs
		}
		return rr, nil
	}
	steps := e.Plan.Skill.Steps
	for i := 0; i < len(steps); {
		st := steps[i]
		if st.Destructive && !dry && !started {
			if err := e.log.write(ctx, r.N, EvStarted, e.markID(r.N, "started"), &RowMark{Row: r.N, Key: r.Key, SkillID: e.Plan.SkillID}); err != nil {
				return RowResult{}, err
			}
			started = true
		}
		e.stepProgress(w, r.N, i)
		var outs []Outcome
		var err error
		switch asks := st.Action == skills.ActionAsk || st.Secret && typesSecrets(w.exec); {
		case asks && !e.Plan.runsIn(r, st):
			// The row's box leaves the step out: nobody is asked.
			if st.Action == skills.ActionAsk {
				outs = []Outcome{{OK: true, Skipped: true, Selector: -1}}
			}
		case asks:
			out, aerr := e.askFor(ctx, r, i, st)
			if aerr != nil {
				return RowResult{}, aerr
			}
			if !out.OK || st.Action == skills.ActionAsk {
				outs = []Outcome{out}
			}
		}
		if outs == nil {
			outs, err = e.do(ctx, w, r.N, i, batchEnd(steps, i), dry)
		}
		if err == nil && len(outs) == 0 {
			err = fmt.Errorf("step %d of row %d: the executor answered nothing", i+1, r.N)
		}
		if err != nil {
			return RowResult{}, err
		}
		first := i
		i += len(outs)
		out := outs[len(outs)-1]
		for k, o := range outs {
			if o.Via != "" {
				via = o.Via
			}
			kept.Proofs = append(kept.Proofs, proofsOf(steps[first+k], first+k, o)...)
			kept.Notes = append(kept.Notes, o.Notes...)
			kept.Files = append(kept.Files, o.Files...)
			kept.Output = cmp.Or(o.Output, kept.Output)
			kept.Refused = kept.Refused || o.Refused
			kept.Healed = append(kept.Healed, o.Healed...)
			kept.ModelCalls += o.ModelCalls
			kept.Tokens += o.Tokens
		}
		if out.OK && dry && steps[i-1].Destructive {
			// What follows a submit is on the page the commit leads to,
			// which a dry run never reaches.
			break
		}
		if out.OK {
			continue
		}
		i-- // the failed step
		st = steps[i]
		reason := out.Error
		if out.PageMessage != "" && !strings.Contains(reason, out.PageMessage) {
			reason += ": the page says: " + out.PageMessage
		}
		if !started && !st.Destructive && out.Sent && !dry {
			// A model's action left the page before the row's submit:
			// what it sent cannot be proved, so the row may be filed.
			if err := e.log.write(ctx, r.N, EvStarted, e.markID(r.N, "started"), &RowMark{Row: r.N, Key: r.Key, SkillID: e.Plan.SkillID}); err != nil {
				return RowResult{}, err
			}
			started = true
		}
		if started && !(st.Destructive && out.NotFiled()) {
			mark := RowMark{Row: r.N, Key: r.Key, SkillID: e.Plan.SkillID, Reason: out.Error}
			if err := e.log.write(ctx, r.N, EvUnknown, e.markID(r.N, "unknown"), &mark); err != nil {
				return RowResult{}, err
			}
			return done(RowResult{N: r.N, Outcome: OutcomeUnknown, Step: i, Action: st.Action, Via: via,
				Reason: "may have been filed: check it (" + reason + ")"})
		}
		// Nothing was filed: before any destructive step, or one that the
		// executor saw send nothing or the site refuse.
		f := RowFailed{Row: r.N, Index: i, Action: st.Action, Reason: out.Error, Before: true}
		// The page's message stays in the report, out of the log: a site
		// may quote the row's values in it. A lost failed mark leaves the
		// row to run again (or, once started, to settle): never filed twice.
		if err := e.log.writeAsync(r.N, EvFailed, e.markID(r.N, "failed"), &f); err != nil {
			return RowResult{}, err
		}
		return done(RowResult{N: r.N, Outcome: OutcomeFailed, Step: i, Action: st.Action, Reason: reason, Via: via})
	}
	if dry {
		return done(RowResult{N: r.N, Outcome: OutcomeDryRun, Step: -1, Via: via})
	}
	// Written without waiting for its ack: a commit mark lost in a crash
	// leaves the row started, which a resume settles, never files again.
	if err := e.log.writeAsync(r.N, EvCommitted, e.markID(r.N, "committed"), &RowMark{Row: r.N, Key: r.Key, SkillID: e.Plan.SkillID}); err != nil {
		return RowResult{}, err
	}
	return done(RowResult{N: r.N, Outcome: OutcomeCommitted, Step: -1, Via: via})
}

// batchEnd is the last step of the batch that starts at step i: the run
// of Batchable steps from i, or i alone.
func batchEnd(steps []skills.Step, i int) int {
	j := i
	for j+1 < len(steps) && Batchable(steps[i]) && Batchable(steps[j+1]) {
		j++
	}
	return j
}

// do writes the command for steps index to through of a row and waits for
// their outcomes: one per step, up to the first that failed.
func (e *engine) do(ctx context.Context, w *worker, row, index, through int, dry bool) ([]Outcome, error) {
	e.mu.Lock()
	e.seq++
	c := Command{Row: row, Index: index, Session: e.session, DryRun: dry, Seq: e.seq, Worker: w.id}
	e.mu.Unlock()
	if through > index {
		c.Through = through
	}
	if e.direct {
		var outs []Outcome
		for _, d := range runCommand(ctx, e.Plan, w.exec, c) {
			if strings.HasPrefix(d.Outcome.Error, Broken) {
				return nil, errors.New(d.Outcome.Error)
			}
			outs = append(outs, d.Outcome)
		}
		return outs, nil
	}
	id := fmt.Sprintf("%d:%d:%d:command", row, e.session, c.Seq)
	// The command need not be acked before its outcome is awaited: a
	// command lost with the process is one no executor ran.
	ack, err := e.log.publishAsync(row, EvCommand, id, &c)
	if err != nil {
		return nil, err
	}
	timer := time.NewTimer(stepTimeout)
	defer timer.Stop()
	outs := make([]Outcome, 0, c.last()-index+1)
	for {
		select {
		case d := <-w.outcomes:
			if d.Seq != c.Seq || d.Index != index+len(outs) {
				continue // an outcome of an earlier, abandoned wait
			}
			if strings.HasPrefix(d.Outcome.Error, Broken) {
				return nil, errors.New(d.Outcome.Error)
			}
			if m, ok := e.Plan.messages.LoadAndDelete(stepKey(c.Session, c.Seq, d.Index)); ok {
				said := m.(pageSaid)
				d.Outcome.PageMessage, d.Outcome.Files, d.Outcome.Output = said.message, said.files, said.output
			}
			outs = append(outs, d.Outcome)
			if !d.Outcome.OK || d.Index == c.last() {
				return outs, nil
			}
			timer.Reset(stepTimeout)
		case err := <-ack.Err():
			return nil, fmt.Errorf("write the command for step %d of row %d: %w", index+1, row, err)
		case <-timer.C:
			return nil, fmt.Errorf("step %d of row %d: no outcome from the executor in %s", index+len(outs)+1, row, stepTimeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
