package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/progress"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/replay/report"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/replay/session"
)

// replayFlags are `reprise replay`'s settings.
type replayFlags struct {
	rows, resume, reportPath, onError, browserURL, profile, executor string
	hub                                                              hubFlags
	again, dryRun, yes, show, acceptHealed, noMarks                  bool
	ignoreColumns                                                    []string
	parallelArg                                                      string // N or auto
	parallel                                                         int
	autoParallel                                                     bool
	idle                                                             time.Duration
}

func newReplayCmd(g *globals) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay SKILL --rows data.csv",
		Short: "Run a skill once for every row of a CSV, each row filed exactly once",
		Long: `Fill every row of the CSV with the skill (its id in ` + "`reprise skill list`" + `, or a skill file),
in a Chromium of its own with a profile kept in the data dir, so a site's login
survives between runs. Each row's destructive step (a submit) is marked in the log
before it runs and the row committed after its read-back, so a run that dies can be
resumed (--resume RUN) without filing a row twice.

The first run of a skill version that submits forms fills rows 1-2, stops before
submitting, and asks you to check them (--show to watch; without a display their
screenshots are saved). --yes skips that once a dry run of this version passed;
--dry-run fills every row and submits none.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runReplay(cmd, g, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.rows, "rows", "", "the CSV to fill, one row per run of the skill (required)")
	fl.StringVar(&f.resume, "resume", "", "resume the run RUN: committed rows are skipped")
	fl.StringVar(&f.reportPath, "report", "", "write the per-row report to this .csv or .json file")
	fl.StringVar(&f.onError, "on-error", replay.OnErrorAuto, "when a row fails: auto goes on, and stops the run when failures look systematic (3 rows in a row not filed, or 2 that may have been filed with none filed between them), saying why and how to resume; stop stops at the first failed row; skip goes on past every one")
	fl.StringVar(&f.browserURL, "browser-url", "", "attach to a running browser's DevTools endpoint instead of launching one")
	fl.StringVar(&f.profile, "profile", "", "the browser profile: a name kept in the data dir (logins survive between runs; one run at a time), or a folder's path (default: the skill's browser.profile, else browser-profile in the data dir)")
	fl.BoolVar(&f.again, "again", false, "fill rows an earlier run of this skill already filed")
	fl.BoolVar(&f.dryRun, "dry-run", false, "fill every row, submit none")
	fl.BoolVar(&f.yes, "yes", false, "run unattended without checking rows 1-2 (needs a passed dry run of this skill version)")
	fl.BoolVar(&f.show, "show", false, "open a visible browser window")
	fl.StringSliceVar(&f.ignoreColumns, "ignore-column", nil, "a CSV column no step uses that this run may leave out (repeatable); the skill's ignore list is kept the same way")
	fl.StringVar(&f.parallelArg, "parallel", "1", "file this many rows at a time, each in its own tab of the browser (1-16), or auto: open tabs while rows per second keep rising, and say what stopped it (see docs/replay.md for when more than 1 is safe)")
	f.hub.add(fl, "file the rows on a hub's workers: its NATS URLs, comma separated, without credentials (see docs/scale-out.md)")
	fl.BoolVar(&f.acceptHealed, "accept-healed", false, "save what a model changed for rows to go through (ai: on_miss) as the skill's next revision, without asking")
	fl.DurationVar(&f.idle, "idle", desktop.DefaultQuiet, "a desktop replay waits until nobody used the pointer or keyboard this long before each input (0: no wait)")
	fl.BoolVar(&f.noMarks, "no-marks", false, "a desktop replay shows no marks where its input lands")
	fl.StringVar(&f.executor, "executor", "auto", "what replays the steps: browser, desktop, or auto (the browser when the skill has web steps)")
	return cmd
}

func runReplay(cmd *cobra.Command, g *globals, skillRef string, f replayFlags) error {
	if err := f.check(); err != nil {
		return err
	}
	home, err := g.resolveHome()
	if err != nil {
		return err
	}
	c, err := g.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, stopWatch := c.Watch(cmd.Context(), client.DaemonGrace)
	defer stopWatch()
	src, err := session.LoadSkill(ctx, c, skillRef)
	if err != nil {
		return err
	}
	table, err := rows.Open(f.rows, src.Skill)
	if err != nil {
		return err
	}
	log := g.log
	cfg := session.Config{SkillID: src.ID, Skill: src.Skill, Doc: src.Doc, Rows: table.Rows, Header: table.Header, Ignore: f.ignoreColumns,
		Plan: replay.PlanOptions{RunID: f.resume, CSV: table.Fingerprint()}, Resume: f.resume != "", Again: f.again, DryRun: f.dryRun,
		Yes: f.yes, OnError: f.onError, Logger: log}
	if cfg.JS, err = jetstream.New(c.Conn()); err != nil {
		return err
	}
	var dcfg daemon.Config
	if f.hub.urls != "" { // the hub key keys its rows; a hub's workers run no model
		if cfg.Hub, err = f.hub.open(home, true); err != nil {
			return err
		}
		cfg.HubNotice = func(worker, why string) {
			fmt.Fprintf(cmd.ErrOrStderr(), "worker %s: %s; its rows wait on the hub for a worker that can\n", worker, why)
		}
	} else {
		if cfg.Plan.Salt, err = c.ReplayKey(ctx); err != nil {
			return err
		}
		if dcfg, err = daemon.LoadConfig(home); err != nil {
			return err
		}
		cfg.Heal = &session.Heal{Model: dcfg.ReplayModel, Cache: func(id string) (*heal.Cache, error) { return daemon.OpenReplayCache(home, id, log) }}
	}
	s, err := session.Open(ctx, cfg)
	if err != nil {
		return f.explain(err)
	}
	defer s.Close()
	out := cmd.OutOrStdout()
	plan := s.Plan()
	if s.OnHub() {
		bar := progress.New(cmd.ErrOrStderr(), s.Total(), progress.IsTerminal(os.Stderr))
		if err := s.Start(ctx, session.Executor{}); err != nil {
			return f.explain(err)
		}
		fmt.Fprintf(out, "run %s: skill %s, %d rows queued on hub %s for its workers (resume with --resume %s)\n",
			plan.RunID, plan.SkillID, s.Queued(), hub.Redact(f.hub.urls), plan.RunID)
		// The workers' questions come here: the person answers them with
		// `reprise runs answer` on this machine.
		res, err := s.Run(ctx, session.RunOptions{Progress: bar.Update, Ask: (&replay.Asker{Conn: c.Conn(), Out: cmd.ErrOrStderr()}).Ask})
		bar.Finish()
		if err != nil {
			return fmt.Errorf("run %s: %w; its rows stay on the hub: --resume %s follows them again", plan.RunID, err, plan.RunID)
		}
		if err := writeReplayReport(out, f.reportPath, res); err != nil {
			return err
		}
		return failed(res)
	}
	ex, release, err := f.executors(ctx, cmd, c, home, dcfg.KeepRuns, src, plan.RunID, log)
	if err != nil {
		return err
	}
	// The browser quits, and the desktop is let go, before its profile's
	// lock and the desktop's grant are.
	defer func() { _ = s.Close(); release() }()
	if err := s.Start(ctx, ex); err != nil {
		return f.explain(err)
	}
	bar := progress.New(cmd.ErrOrStderr(), s.Total(), progress.IsTerminal(os.Stderr))

	fmt.Fprintf(out, "run %s: skill %s, %d rows (resume with --resume %s)\n", plan.RunID, src.ID, len(plan.Rows), plan.RunID)
	ro := session.RunOptions{ResumeCommand: resumeCommand(cmd, skillRef, plan.RunID), Progress: bar.Update, StepProgress: bar.StepOf,
		Ask: (&replay.Asker{Conn: c.Conn(), Out: cmd.ErrOrStderr()}).Ask}
	if !f.yes {
		ro.Confirm = session.ConfirmOn(cmd.InOrStdin(), out, f.show)
		ro.SnapshotDir = filepath.Join(home, "replay-checks")
	}
	res, err := s.Run(ctx, ro)
	bar.Finish()
	err = f.explain(err)
	if errors.Is(context.Cause(ctx), client.ErrDaemonGone) {
		err = fmt.Errorf("the daemon stopped during run %s: start it again (reprise daemon), then resume with --resume %s; no row is filed twice", plan.RunID, plan.RunID)
	}
	if res != nil {
		if werr := writeReplayReport(out, f.reportPath, res); werr != nil && err == nil {
			err = werr
		}
		if res.Stopped != "" {
			fmt.Fprintf(out, "run %s stopped early: %s\n", res.RunID, res.Stopped)
		}
		if f.autoParallel && res.Tabs > 0 {
			fmt.Fprintln(out, autoParallelLine(res.Tabs, res.TabsLimit))
		}
		if herr := proposeHealed(ctx, s, c, out, res, src.File, f.acceptHealed); herr != nil && err == nil {
			err = herr
		}
	}
	if err != nil {
		return err
	}
	return failed(res)
}

// check refuses flags that do not go together, before anything is read.
func (f *replayFlags) check() error {
	if f.rows == "" {
		return errors.New("--rows is required: the CSV whose rows the skill fills")
	}
	switch f.onError {
	case replay.OnErrorAuto, replay.OnErrorStop, replay.OnErrorSkip:
	default:
		return fmt.Errorf("--on-error %q: want auto, stop or skip", f.onError)
	}
	if f.parallelArg == "auto" {
		f.parallel, f.autoParallel = 1, true
	} else if n, err := strconv.Atoi(f.parallelArg); err != nil || n < 1 || n > session.MaxParallel {
		return fmt.Errorf("--parallel %q: want 1 to %d rows at a time, or auto", f.parallelArg, session.MaxParallel)
	} else {
		f.parallel = n
	}
	if f.idle < 0 {
		return fmt.Errorf("--idle %s: want 0 (no wait) or more", f.idle)
	}
	if f.hub.urls != "" && (f.parallel != 1 || f.autoParallel || f.show || f.browserURL != "" || f.profile != "") {
		return errors.New("--hub: the hub's workers file the rows with their own browsers; give --parallel, --show and --profile to `reprise worker`")
	}
	if f.hub.urls != "" {
		if err := checkHubArgv(f.hub.urls); err != nil {
			return err
		}
	} else if f.hub.credentials != "" {
		return errors.New("--hub-credentials is for a run on a hub: give --hub too")
	}
	if f.hub.urls != "" && !f.yes && !f.dryRun {
		return errors.New("--hub: a run on a hub's workers is unattended: run it with --dry-run first, then with --yes")
	}
	if f.dryRun && f.yes {
		return errors.New("--dry-run and --yes together: a dry run submits nothing, so there is nothing to confirm")
	}
	if f.resume != "" && !events.ValidRunID(f.resume) {
		return fmt.Errorf("--resume %q: not a run id; use the one the run printed (run_...)", f.resume)
	}
	// Before any row is filed: a report that cannot be written after the
	// last row would leave the run without its record.
	if f.reportPath != "" {
		if err := report.CheckPath(f.reportPath); err != nil {
			return fmt.Errorf("--report: %w", err)
		}
	}
	return nil
}

// explain words the session's refusals with this command's flags.
func (f *replayFlags) explain(err error) error {
	var rowsErr *session.RowsError
	var cols *session.ColumnsError
	var exists *replay.RunExistsError
	var check *replay.CheckStoppedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &rowsErr) && rowsErr.Stop:
		return fmt.Errorf("%s: %d bad row(s), nothing was run (--on-error skip runs the others and reports these skipped):\n  %s", f.rows, len(rowsErr.Bad), rowsErr.Why())
	case errors.As(err, &rowsErr):
		// --on-error auto or skip runs the other rows: there are none.
		return fmt.Errorf("%s: every row is bad (%d), nothing was run:\n  %s", f.rows, len(rowsErr.Bad), rowsErr.Why())
	case errors.As(err, &cols):
		return fmt.Errorf("%s: no step of the skill uses column(s) %s, and the skill does not ignore them: a row's value there would be left out silently. Rebuild the skill with this CSV as --rows (it asks what each fills), or pass --ignore-column for each",
			f.rows, session.QuoteJoin(cols.Columns))
	case errors.Is(err, session.ErrHubNeedsDryRun):
		return fmt.Errorf("this skill version has not passed a dry run on hub %s: run it once with --hub and --dry-run (a few rows are enough)", hub.Redact(f.hub.urls))
	case errors.Is(err, session.ErrParallelDesktop):
		return errors.New("--parallel needs the browser executor: a desktop has one keyboard and pointer, so its rows run one at a time")
	case errors.Is(err, pick.ErrKind):
		return fmt.Errorf("--executor %q: want auto, browser or desktop", f.executor)
	case errors.Is(err, replay.ErrNeedsDryRun):
		return errors.New("this skill version has not passed a dry run yet: run it once with --dry-run (a few rows are enough), or without --yes to check its first rows now")
	case errors.Is(err, replay.ErrNeedsConfirmation):
		return errors.New("this skill submits forms and its first rows must be checked by a person: run it on a terminal, or pass --yes after a --dry-run")
	case errors.As(err, &check):
		return errors.New(wordHint(err.Error(), replay.HintOnErrorAuto))
	case errors.As(err, &exists):
		return fmt.Errorf("run %s exists: resume it with --resume %s, or start a new run", exists.RunID, exists.RunID)
	}
	return err
}

// executors are what replays a local run's steps, as the flags say, with
// the browser's profile held for the run: session.Local holds the desktop.
func (f *replayFlags) executors(ctx context.Context, cmd *cobra.Command, c *client.Client, home string, keep int, src session.Skill, runID string, log *slog.Logger) (session.Executor, func(), error) {
	profile := f.profile
	if profile == "" && src.Skill.Browser != nil {
		profile = src.Skill.Browser.Profile
	}
	profile, releaseProfile, err := browser.HoldNamedProfile(home, profile, "browser-profile", "run "+runID)
	if err != nil {
		return session.Executor{}, nil, err
	}
	ex, release, err := session.Local{Kind: f.executor, SkillFile: src.File, Idle: f.idle, NoMarks: f.noMarks, Frame: c.Frame,
		Grants: c, Holder: "run " + runID, Parallel: f.parallel, AutoParallel: f.autoParallel, Runs: filepath.Join(home, "runs"), Keep: keep, Logger: log,
		Browser: browser.Options{ProfileDir: profile, Show: f.show, BrowserURL: f.browserURL, Logger: log,
			NoSandbox: browser.SandboxOff(), FilesDir: filepath.Dir(f.rows), Passphrase: keychainSecret},
		Waiting: func(holder string) {
			fmt.Fprintf(cmd.ErrOrStderr(), "waiting for the desktop: another replay holds it (%s)\n", holder)
		},
	}.Executor(ctx, src.Skill)
	if err != nil {
		releaseProfile()
		return session.Executor{}, nil, err
	}
	return ex, func() { release(); releaseProfile() }, nil
}

// failed is the run's error when rows failed: the exit is then not zero.
func failed(res *replay.Result) error {
	if res.Failed() {
		return fmt.Errorf("run %s: some rows failed or need checking; see the report", res.RunID)
	}
	return nil
}

// resumeCommand is the command that resumes run runID as this replay was
// started: its skill, CSV and flags, with --resume runID. A run that stops
// early under --on-error auto names it for the rows not run.
func resumeCommand(cmd *cobra.Command, skillRef, runID string) string {
	parts := []string{"reprise", "replay", shellQuote(skillRef)}
	if fl := cmd.Flags().Lookup("rows"); fl != nil {
		parts = append(parts, "--rows", shellQuote(fl.Value.String()))
	}
	cmd.Flags().Visit(func(fl *pflag.Flag) {
		name := "--" + fl.Name
		switch v := fl.Value.(type) {
		case pflag.SliceValue:
			for _, x := range v.GetSlice() {
				parts = append(parts, name, shellQuote(x))
			}
		default:
			switch {
			case fl.Name == "rows" || fl.Name == "resume" || fl.Name == "hub" || fl.Name == "hub-key":
			case fl.Value.Type() == "bool" && v.String() == "true":
				parts = append(parts, name)
			case fl.Value.Type() == "bool":
				parts = append(parts, name+"=false")
			default:
				parts = append(parts, name, shellQuote(v.String()))
			}
		}
	})
	return strings.Join(append(parts, "--resume", runID), " ")
}

// proposeHealed proposes what a model changed for the run's rows as the
// skill's next revision (saved at once with accept), and says where; file
// is the skill's file, when it was given as one.
func proposeHealed(ctx context.Context, s *session.Session, c *client.Client, out io.Writer, res *replay.Result, file string, accept bool) error {
	p, err := s.Propose(ctx, res, file, c.Book(), accept)
	id := s.Plan().SkillID
	switch {
	case err != nil || p.Rows == 0:
		return err
	case p.File != "":
		fmt.Fprintf(out, "%d row(s) healed by the model; the healed skill is %s\n", p.Rows, p.File)
	case p.Changed:
		fmt.Fprintf(out, "%d row(s) healed by the model; skill %s changed during the run, so no revision is proposed\n", p.Rows, id)
	case accept:
		fmt.Fprintf(out, "%d row(s) healed by the model: saved as revision %d of skill %s (--accept-healed)\n", p.Rows, p.Revision, id)
	default:
		fmt.Fprintf(out, "%d row(s) healed by the model: a revision of skill %s is proposed; see it with `reprise skill show %s --pending`, accept it with `reprise skill accept %s`\n",
			p.Rows, id, id, id)
	}
	return nil
}

// writeReplayReport prints the run's report, and writes it to path, its
// reasons worded with this command's flags (res's too).
func writeReplayReport(out io.Writer, path string, res *replay.Result) error {
	wordResult(res)
	return session.WriteReport(out, path, res)
}

// autoParallelLine says what --parallel auto settled on, and why.
func autoParallelLine(tabs int, limit string) string {
	line := fmt.Sprintf("--parallel auto: %d tab(s)", tabs)
	if limit == "" {
		return line + "; the rows ran out before more stopped helping"
	}
	return line + "; more did not file faster, limited by " + limit
}
