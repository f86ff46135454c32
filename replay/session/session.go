// Package session is one replay run put together: a skill's rows planned,
// the rows filed before left out, the executors built (the browser and its
// tabs, or the desktop, through replay/pick), healing by a model wrapped
// around them, or the rows queued on a hub's workers instead; then the run
// and its result. `reprise replay`, `reprise worker` and the co-pilot's dry
// run each open one here rather than wiring the engine themselves.
//
// A session is opened (Open: the plan and every refusal that needs no
// executor), started (Start: the executors, or the hub's queue) and run
// (Run), then closed. Between Open and Start the caller may take what the
// run's id names: a browser profile's lock, the desktop's grant and lease.
// Errors a caller words for a person are typed (errors.go); none names a
// command or a flag.
package session

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skills"
)

// MaxParallel bounds the rows filed at once on one machine: each is a tab,
// a renderer's worth of memory and CPU, and a site rarely wants more from
// one person.
const MaxParallel = 16

// Config is what a session runs: a skill, its rows, and how.
type Config struct {
	// SkillID, Skill and Doc are the skill: its id in the skill book (or
	// the one its name gives), parsed, and its document as kept.
	SkillID string
	Skill   *skills.Skill
	Doc     []byte
	// Rows are the rows to fill, numbered as in the CSV.
	Rows []rows.Row
	// Header is the CSV's header; with it, a column no step reads and
	// neither the skill nor Ignore leaves out refuses the run
	// (*ColumnsError). Nil checks nothing.
	Header []string
	// Ignore are columns this run may leave out, besides the skill's own.
	Ignore []string
	// Plan names the run and keys its rows (replay.NewPlan). A hub run
	// with no Salt keys rows with the hub key's.
	Plan replay.PlanOptions
	// JS is this machine's log, where a local run is planned and served.
	JS jetstream.JetStream
	// Resume continues run Plan.RunID; Again fills rows an earlier run
	// filed; DryRun submits nothing; Yes runs unattended once a dry run of
	// this version passed (replay.Options).
	Resume, Again, DryRun, Yes bool
	// OnError is replay.OnErrorAuto (the default), OnErrorStop or
	// OnErrorSkip. Under OnErrorStop a bad row refuses the whole run.
	OnError string
	// Hub, if set, files the rows on a hub's workers instead of here.
	Hub *Hub
	// HubNotice, if set, is told once of each hub worker that cannot file
	// the run's rows, and why (hub.Run.Notice).
	HubNotice func(worker, why string)
	// Heal, if set, lets a model act for the steps whose ai asks for it
	// (replay/heal). A skill with such steps and no Heal runs them
	// without one, and they fail naming it. A hub's workers run no model:
	// a hub run ignores it.
	Heal *Heal
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// Executor says what replays the steps of a local run.
type Executor struct {
	// Options are replay/pick's: the kind (auto, browser, desktop), the
	// browser's options, the desktop's guard and lease.
	pick.Options
	// Build, if set, builds the executor instead of replay/pick: one of
	// the caller's own.
	Build func(ctx context.Context) (replay.Executor, error)
	// Parallel is how many rows are filed at once, each in a tab of the
	// browser: 1 to MaxParallel; 0 is 1.
	Parallel int
	// AutoParallel starts with one tab and opens more while rows per
	// second keep rising (replay.Options.More); Parallel is then ignored.
	// A desktop run stays at one.
	AutoParallel bool
	// Runs is the folder of runs' artifacts (downloads, screenshots), one
	// folder a run; the oldest past Keep are removed. Empty keeps none.
	Runs string
	Keep int
}

// Session is one run of a skill over rows; see the package comment.
type Session struct {
	cfg     Config
	log     *slog.Logger
	plan    *replay.Plan
	bad     []replay.BadRow
	refused []replay.RowResult

	execs   []replay.Executor
	auto    bool              // open tabs as they help (Executor.AutoParallel)
	browser *browser.Executor // the run's browser, unwrapped; nil on the desktop
	emu     sync.Mutex        // execs and stops, which a run opening its tabs adds to
	healing *healing
	stops   []func()

	hubRun  *hub.Run
	hubConn *nats.Conn
	session int
	settled map[int]replay.RowResult
}

// Open plans the run: the columns checked, the plan made, rows filed before
// (by this skill's earlier runs) left out and bad rows refused, and a hub
// run's limits checked. It launches nothing.
func Open(ctx context.Context, cfg Config) (*Session, error) {
	s := &Session{cfg: cfg, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if cfg.Header != nil {
		if left := Unaccounted(cfg.Skill, cfg.Header, cfg.Ignore); len(left) > 0 {
			return nil, &ColumnsError{Columns: left}
		}
	}
	if cfg.Hub != nil && cfg.Plan.Salt == nil {
		// Every machine of the hub keys a row's record alike: a resume
		// from another machine names it as the first run did.
		cfg.Plan.Salt = cfg.Hub.Key.Salt()
	}
	plan, badRows, err := replay.NewPlan(cfg.SkillID, cfg.Skill, cfg.Doc, cfg.Rows, cfg.Plan)
	if err != nil {
		return nil, err
	}
	s.plan = plan
	// A row filed before (by hand while demonstrating, or by a run) is
	// neither bad nor filed again, whatever its cells say now.
	var filed replay.Filed
	if !cfg.Again && !cfg.Plan.NoKeys {
		if filed, err = replay.FiledBefore(ctx, cfg.JS, cfg.SkillID, plan.RunID); err != nil {
			return nil, fmt.Errorf("read the rows filed before: %w", err)
		}
	}
	for _, b := range badRows {
		rr, before := filed.Refused(b)
		s.refused = append(s.refused, rr)
		if !before {
			s.bad = append(s.bad, b)
		}
	}
	if len(s.bad) > 0 && cfg.OnError == replay.OnErrorStop {
		return nil, &RowsError{Bad: s.bad, Stop: true}
	}
	if len(s.bad) > 0 && len(plan.Rows) == 0 {
		return nil, &RowsError{Bad: s.bad}
	}
	if cfg.Hub != nil {
		// The hub's workers read the hub's log, not this machine's.
		var skipped []replay.RowResult
		plan.Rows, skipped = filed.TakeOut(plan.Rows)
		s.refused = append(s.refused, skipped...)
		if plan.Rows, skipped, err = hubFiles(cfg.Skill, plan.Rows); err != nil {
			return nil, err
		}
		s.refused = append(s.refused, skipped...)
	}
	if cfg.Heal != nil && cfg.Hub == nil {
		if s.healing, err = startHealing(cfg.SkillID, cfg.Skill, cfg.Heal, s.log); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Plan is the run's plan: its id and the rows it files.
func (s *Session) Plan() *replay.Plan { return s.plan }

// Bad are the rows whose cells do not fit the skill and that no earlier
// run filed; a run files the others and reports these skipped.
func (s *Session) Bad() []replay.BadRow { return s.bad }

// Total is how many rows the report will have.
func (s *Session) Total() int { return len(s.plan.Rows) + len(s.refused) }

// OnHub says the rows are filed by a hub's workers.
func (s *Session) OnHub() bool { return s.cfg.Hub != nil }

// Queued is how many rows a started hub run put on the hub's queue.
func (s *Session) Queued() int { return len(s.plan.Rows) - len(s.settled) }

// Start builds the executors (ex: the kind, the browser's options, tabs
// for Parallel), wraps them with healing, and serves the plan's steps to
// them; or, on a hub, connects, checks that this version passed a dry run
// there (ErrHubNeedsDryRun) and queues the rows.
func (s *Session) Start(ctx context.Context, ex Executor) error {
	if s.cfg.Hub != nil {
		return s.startHub(ctx)
	}
	if ex.Parallel < 1 || ex.AutoParallel {
		ex.Parallel = 1
	}
	s.auto = ex.AutoParallel
	if ex.Parallel > MaxParallel {
		return fmt.Errorf("%d rows at a time: want 1 to %d", ex.Parallel, MaxParallel)
	}
	if ex.Runs != "" {
		if err := PruneRuns(ex.Runs, ex.Keep, s.plan.RunID); err != nil {
			return err
		}
		s.plan.Artifacts = filepath.Join(ex.Runs, s.plan.RunID)
	}
	if ex.Logger == nil {
		ex.Logger = s.log
	}
	build := ex.Build
	if build == nil {
		build = func(ctx context.Context) (replay.Executor, error) { return pick.New(ctx, s.cfg.Skill, ex.Options) }
	}
	first, err := build(ctx)
	if err != nil {
		return err
	}
	s.execs = append(s.execs, first)
	s.browser, _ = first.(*browser.Executor)
	tabs, err := Tabs(ctx, first, ex.Parallel-1)
	s.execs = append(s.execs, tabs...)
	if err != nil {
		return err
	}
	if s.healing != nil {
		for i := range s.execs {
			if s.execs[i], err = s.healing.wrap(s.execs[i]); err != nil {
				return err
			}
		}
	}
	for i, x := range s.execs {
		stop, err := replay.ServeWorker(ctx, s.cfg.JS, s.plan, i, x, s.log)
		if err != nil {
			return err
		}
		s.stops = append(s.stops, stop)
	}
	return nil
}

func (s *Session) startHub(ctx context.Context) error {
	h := s.cfg.Hub
	nc, js, err := hub.Connect(h.URLs, cmp.Or(h.Name, "reprise replay"), h.Credentials)
	if err != nil {
		return err
	}
	s.hubConn = nc
	s.hubRun = &hub.Run{JS: js, Key: h.Key, Plan: s.plan, Doc: s.cfg.Doc, DryRun: s.cfg.DryRun, Again: s.cfg.Again,
		Resume: s.cfg.Resume, Refused: s.refused, Ledger: h.Ledger, Notice: s.cfg.HubNotice}
	if !s.cfg.DryRun {
		passed, err := s.hubRun.PassedDryRun(ctx)
		if err != nil {
			return err
		}
		if !passed {
			return ErrHubNeedsDryRun
		}
	}
	s.session, s.settled, err = s.hubRun.Start(ctx)
	return err
}

// RunOptions are the run's ties to a person: each is optional.
type RunOptions struct {
	// Confirm, Ask, SnapshotDir and ResumeCommand are replay.Options'.
	Confirm       func(ctx context.Context, rows []int, snapshots []string) (bool, error)
	Ask           func(ctx context.Context, q replay.Question) (string, error)
	SnapshotDir   string
	ResumeCommand string
	// Progress is told after each row, StepProgress before each step.
	Progress     func(done, failed, skipped, unknown int)
	StepProgress func(worker, row, step, steps int)
}

// Run files the rows and returns the result, which holds a row for every
// row of the plan and every refused one; a result may come with an error
// (the run stopped early). A hub run's error leaves its rows on the hub: a
// resume follows them again.
func (s *Session) Run(ctx context.Context, o RunOptions) (*replay.Result, error) {
	if s.hubRun != nil {
		s.hubRun.Progress, s.hubRun.Ask = o.Progress, o.Ask
		return s.hubRun.Wait(ctx, s.session, s.settled)
	}
	if len(s.execs) == 0 {
		return nil, errors.New("replay session: Run before Start")
	}
	if o.SnapshotDir != "" {
		if err := os.MkdirAll(o.SnapshotDir, 0o700); err != nil {
			return nil, err
		}
	}
	var more func(context.Context, int) (replay.Executor, error)
	if s.auto && s.browser != nil {
		more = s.openTab
	}
	return replay.Run(ctx, replay.Options{JS: s.cfg.JS, Plan: s.plan, Executor: s.execs[0], Others: s.execs[1:], More: more, MostTabs: MaxParallel,
		Resume: s.cfg.Resume, Again: s.cfg.Again, DryRun: s.cfg.DryRun, Yes: s.cfg.Yes, OnError: s.cfg.OnError,
		Refused: s.refused, Confirm: o.Confirm, Ask: o.Ask, SnapshotDir: o.SnapshotDir, ResumeCommand: o.ResumeCommand,
		Progress: o.Progress, StepProgress: o.StepProgress, Logger: s.log})
}

// openTab opens another tab of the run's browser as worker n, wrapped for
// healing as the others, and serves it.
func (s *Session) openTab(ctx context.Context, n int) (replay.Executor, error) {
	tab, err := s.browser.Tab(ctx)
	if err != nil {
		return nil, err
	}
	var x replay.Executor = tab
	if s.healing != nil {
		if x, err = s.healing.wrap(tab); err != nil {
			_ = tab.Close()
			return nil, err
		}
	}
	stop, err := replay.ServeWorker(ctx, s.cfg.JS, s.plan, n, x, s.log)
	s.emu.Lock()
	defer s.emu.Unlock()
	s.execs = append(s.execs, x)
	if err != nil {
		return nil, err
	}
	s.stops = append(s.stops, stop)
	return x, nil
}

// Close stops serving the steps, closes the executors and leaves the hub.
// It is safe to call twice.
func (s *Session) Close() error {
	s.emu.Lock()
	defer s.emu.Unlock()
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
	var errs []error
	for i := len(s.execs) - 1; i >= 0; i-- {
		errs = append(errs, s.execs[i].Close())
	}
	s.execs = nil
	if s.hubConn != nil {
		s.hubConn.Close()
		s.hubConn = nil
	}
	return errors.Join(errs...)
}

// Tabs opens n more tabs of exec's browser, each an executor of its own
// for rows filed in parallel. Tabs, not separate browser contexts, so that
// every row has the profile's login, as the person's own tabs would. On
// an error, the tabs opened so far come back with it, for the caller to
// close.
func Tabs(ctx context.Context, exec replay.Executor, n int) ([]replay.Executor, error) {
	if n <= 0 {
		return nil, nil
	}
	b, ok := exec.(*browser.Executor)
	if !ok {
		return nil, ErrParallelDesktop
	}
	var tabs []replay.Executor
	for range n {
		t, err := b.Tab(ctx)
		if err != nil {
			return tabs, err
		}
		tabs = append(tabs, t)
	}
	return tabs, nil
}
