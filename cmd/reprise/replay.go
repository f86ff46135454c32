package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/progress"
	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/replay/report"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skillbook"
	"github.com/reprise-dev/reprise/skills"
)

// replayFlags are `reprise replay`'s settings.
type replayFlags struct {
	rows, resume, reportPath, onError, browserURL, profile, executor string
	hub, hubKey, hubCredentials                                      string
	again, dryRun, yes, show, acceptHealed, noMarks                  bool
	ignoreColumns                                                    []string
	parallel                                                         int
	idle                                                             time.Duration
}

// maxParallel bounds --parallel: each tab is a renderer's worth of memory
// and CPU, and a site rarely wants more from one person.
const maxParallel = 16

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
	fl.IntVar(&f.parallel, "parallel", 1, "file this many rows at a time, each in its own tab of the browser (1-16; see docs/replay.md for when more than 1 is safe)")
	fl.StringVar(&f.hub, "hub", "", "file the rows on a hub's workers: its NATS URLs, comma separated, without credentials (see docs/scale-out.md)")
	fl.StringVar(&f.hubCredentials, "hub-credentials", "", "with --hub: a file only you can read holding the hub's user:password (or token, or a NATS .creds file); default: $"+hub.CredentialsEnv)
	fl.StringVar(&f.hubKey, "hub-key", "", "with --hub: the hub key file, made on first use (default: hub.key in the data dir); copy it to every worker")
	fl.BoolVar(&f.acceptHealed, "accept-healed", false, "save what a model changed for rows to go through (ai: on_miss) as the skill's next revision, without asking")
	fl.DurationVar(&f.idle, "idle", desktop.DefaultQuiet, "a desktop replay waits until nobody used the pointer or keyboard this long before each input (0: no wait)")
	fl.BoolVar(&f.noMarks, "no-marks", false, "a desktop replay shows no marks where its input lands")
	fl.StringVar(&f.executor, "executor", "auto", "what replays the steps: browser, desktop, or auto (the browser when the skill has web steps)")
	return cmd
}

func runReplay(cmd *cobra.Command, g *globals, skillRef string, f replayFlags) error {
	if f.rows == "" {
		return errors.New("--rows is required: the CSV whose rows the skill fills")
	}
	switch f.onError {
	case replay.OnErrorAuto, replay.OnErrorStop, replay.OnErrorSkip:
	default:
		return fmt.Errorf("--on-error %q: want auto, stop or skip", f.onError)
	}
	if f.parallel < 1 || f.parallel > maxParallel {
		return fmt.Errorf("--parallel %d: want 1 to %d rows at a time", f.parallel, maxParallel)
	}
	if f.idle < 0 {
		return fmt.Errorf("--idle %s: want 0 (no wait) or more", f.idle)
	}
	if f.hub != "" && (f.parallel != 1 || f.show || f.browserURL != "" || f.profile != "") {
		return errors.New("--hub: the hub's workers file the rows with their own browsers; give --parallel, --show and --profile to `reprise worker`")
	}
	if f.hub != "" {
		if err := hub.CheckArgv(f.hub); err != nil {
			return err
		}
	} else if f.hubCredentials != "" {
		return errors.New("--hub-credentials is for a run on a hub: give --hub too")
	}
	if f.hub != "" && !f.yes && !f.dryRun {
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
	home, err := g.resolveHome()
	if err != nil {
		return err
	}
	c, err := g.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, stopWatch := watchDaemon(cmd.Context(), c.Conn(), daemonGrace)
	defer stopWatch()
	skillID, doc, err := loadSkill(ctx, c, skillRef)
	if err != nil {
		return err
	}
	skill, err := skills.Parse(doc)
	if err != nil {
		return fmt.Errorf("skill %s: %w", skillID, err)
	}
	table, err := rows.Open(f.rows, skill)
	if err != nil {
		return err
	}
	var hubKey *hub.Key
	var salt []byte
	if f.hub != "" {
		// Every machine of the hub keys a row's record alike: a resume
		// from another machine names it as the first run did.
		if f.hubKey == "" {
			f.hubKey = filepath.Join(home, "hub.key")
		}
		if hubKey, err = hub.LoadKey(f.hubKey, true); err != nil {
			return err
		}
		salt = hubKey.Salt()
	} else if salt, err = c.ReplayKey(ctx); err != nil {
		return err
	}
	if left := unaccounted(skill, table.Header, f.ignoreColumns); len(left) > 0 {
		return fmt.Errorf("%s: no step of the skill uses column(s) %s, and the skill does not ignore them: a row's value there would be left out silently. Rebuild the skill with this CSV as --rows (it asks what each fills), or pass --ignore-column for each",
			f.rows, quoteJoin(left))
	}
	plan, badRows, err := replay.NewPlan(skillID, skill, doc, table.Rows, replay.PlanOptions{RunID: f.resume, CSV: table.Fingerprint(), Salt: salt})
	if err != nil {
		return err
	}
	js, err := jetstream.New(c.Conn())
	if err != nil {
		return err
	}
	// A row filed before (by hand while demonstrating, or by a run) is
	// neither bad nor filed again, whatever its cells say now.
	var filed replay.Filed
	if !f.again {
		if filed, err = replay.FiledBefore(ctx, js, skillID, plan.RunID); err != nil {
			return fmt.Errorf("read the rows filed before: %w", err)
		}
	}
	var bad []string
	var refused []replay.RowResult
	for _, b := range badRows {
		rr, before := filed.Refused(b)
		refused = append(refused, rr)
		if !before {
			bad = append(bad, b.Why())
		}
	}
	out := cmd.OutOrStdout()
	if len(bad) > 0 && f.onError == replay.OnErrorStop {
		return fmt.Errorf("%s: %d bad row(s), nothing was run (--on-error skip runs the others and reports these skipped):\n  %s", f.rows, len(bad), strings.Join(bad, "\n  "))
	}
	if len(bad) > 0 && len(plan.Rows) == 0 {
		// --on-error auto or skip runs the other rows: there are none.
		return fmt.Errorf("%s: every row is bad (%d), nothing was run:\n  %s", f.rows, len(bad), strings.Join(bad, "\n  "))
	}

	if f.hub != "" && asks(skill) {
		return errors.New("--hub: this skill asks a person (an ask step or a password), which a hub's workers cannot pass on yet: run it without --hub")
	}
	if f.hub != "" && skill.Browser != nil {
		// A worker's browser starts before it knows which skill it files:
		// it could not keep to the skill's allowed domains or certificates.
		return errors.New("--hub: this skill has a browser section, which a hub's workers do not apply yet: run it without --hub")
	}
	if f.hub != "" {
		// The hub's workers read the hub's log, not this machine's.
		var skipped []replay.RowResult
		plan.Rows, skipped = filed.TakeOut(plan.Rows)
		refused = append(refused, skipped...)
		return runHubReplay(ctx, cmd, f, &hub.Run{Key: hubKey, Plan: plan, Doc: doc, DryRun: f.dryRun, Again: f.again, Resume: f.resume != "", Refused: refused,
			Ledger: filepath.Join(home, "hub-ledger")})
	}
	log, err := g.logger()
	if err != nil {
		return err
	}
	profile := f.profile
	if profile == "" && skill.Browser != nil {
		profile = skill.Browser.Profile
	}
	profile, release, err := holdProfile(home, profile, "browser-profile", "run "+plan.RunID)
	if err != nil {
		return err
	}
	defer release()
	cfg, err := daemon.LoadConfig(home)
	if err != nil {
		return err
	}
	kind, _ := pick.Kind(f.executor, skill)
	heals, err := startHealing(home, cfg, skillID, skillRef, skill, doc, log)
	if err != nil {
		return err
	}
	if err := pruneRuns(filepath.Join(home, "runs"), cfg.KeepRuns, plan.RunID); err != nil {
		return err
	}
	plan.Artifacts = filepath.Join(home, "runs", plan.RunID)
	skillDir := ""
	if st, err := os.Stat(skillRef); err == nil && !st.IsDir() {
		skillDir = filepath.Dir(skillRef)
	}
	var guard desktop.Guard
	var lease *desktop.Lease
	if kind == pick.Desktop {
		g, release, err := holdDesktop(ctx, c, log)
		if err != nil {
			return err
		}
		defer release()
		guard = g
		if lease, err = desktop.NewLease(os.Getenv("DISPLAY"), fmt.Sprintf("run %s, pid %d", plan.RunID, os.Getpid())); err != nil {
			return err
		}
		lease.Logger = log
		lease.Waiting = func(holder string) {
			fmt.Fprintf(cmd.ErrOrStderr(), "waiting for the desktop: another replay holds it (%s)\n", holder)
		}
	}
	exec, err := pick.New(ctx, skill, pick.Options{
		Kind:    f.executor,
		Guard:   guard,
		Lease:   lease,
		Quiet:   quiet(f.idle),
		NoMarks: f.noMarks,
		Browser: browser.Options{ProfileDir: profile, Show: f.show, BrowserURL: f.browserURL, Logger: log,
			Skill: skill.Browser, NoSandbox: browser.SandboxOff(), FilesDir: filepath.Dir(f.rows),
			SkillDir: skillDir, Passphrase: keychainSecret},
		Frame:  c.Frame,
		Logger: log,
	})
	if errors.Is(err, pick.ErrKind) {
		return fmt.Errorf("--executor %q: want auto, browser or desktop", f.executor)
	}
	if err != nil {
		return err
	}
	defer exec.Close()
	others, err := moreTabs(ctx, exec, f.parallel-1)
	for _, o := range others {
		defer o.Close()
	}
	if err != nil {
		return err
	}
	if heals != nil {
		if exec, err = heals.wrap(exec); err != nil {
			return err
		}
		for i := range others {
			if others[i], err = heals.wrap(others[i]); err != nil {
				return err
			}
		}
	}
	for i, x := range append([]replay.Executor{exec}, others...) {
		stop, err := replay.ServeWorker(ctx, js, plan, i, x, log)
		if err != nil {
			return err
		}
		defer stop()
	}

	fmt.Fprintf(out, "run %s: skill %s, %d rows (resume with --resume %s)\n", plan.RunID, skillID, len(plan.Rows), plan.RunID)
	bar := progress.New(cmd.ErrOrStderr(), len(plan.Rows)+len(refused), progress.IsTerminal(os.Stderr))
	o := replay.Options{JS: js, Plan: plan, Executor: exec, Resume: f.resume != "", Again: f.again, DryRun: f.dryRun, Yes: f.yes,
		OnError: f.onError, ResumeCommand: resumeCommand(cmd, skillRef, plan.RunID), Refused: refused, Progress: bar.Update, StepProgress: bar.StepOf, Others: others, Logger: log, SnapshotDir: filepath.Join(home, "replay-checks"),
		Ask: (&asker{nc: c.Conn(), out: cmd.ErrOrStderr()}).ask}
	if !f.yes {
		o.Confirm = confirmer(cmd.InOrStdin(), out, f.show)
		if err := os.MkdirAll(o.SnapshotDir, 0o700); err != nil {
			return err
		}
	}
	res, err := replay.Run(ctx, o)
	bar.Finish()
	if errors.Is(context.Cause(ctx), errDaemonGone) {
		err = fmt.Errorf("the daemon stopped during run %s: start it again (reprise daemon), then resume with --resume %s; no row is filed twice", plan.RunID, plan.RunID)
	}
	if res != nil {
		if werr := writeReplayReport(out, f.reportPath, res); werr != nil && err == nil {
			err = werr
		}
		if res.Stopped != "" {
			fmt.Fprintf(out, "run %s stopped early: %s\n", res.RunID, res.Stopped)
		}
		if heals != nil {
			if herr := heals.propose(ctx, c, out, res, f.acceptHealed); herr != nil && err == nil {
				err = herr
			}
		}
	}
	if err != nil {
		return err
	}
	if res.Failed() {
		return fmt.Errorf("run %s: some rows failed or need checking; see the report", plan.RunID)
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

// quiet is --idle as the desktop executor takes it: 0 turns the wait off.
func quiet(idle time.Duration) time.Duration {
	if idle <= 0 {
		return -1
	}
	return idle
}

// runHubReplay queues a run's rows on a hub for its workers and follows
// their results to the report.
func runHubReplay(ctx context.Context, cmd *cobra.Command, f replayFlags, r *hub.Run) error {
	nc, js, err := hub.Connect(f.hub, "reprise replay", hub.Credentials{File: f.hubCredentials, Env: os.Getenv(hub.CredentialsEnv)})
	if err != nil {
		return err
	}
	defer nc.Close()
	r.JS = js
	p := r.Plan
	if !f.dryRun {
		passed, err := r.PassedDryRun(ctx)
		if err != nil {
			return err
		}
		if !passed {
			return fmt.Errorf("this skill version has not passed a dry run on hub %s: run it once with --hub and --dry-run (a few rows are enough)", hub.Redact(f.hub))
		}
	}
	out := cmd.OutOrStdout()
	bar := progress.New(cmd.ErrOrStderr(), len(p.Rows)+len(r.Refused), progress.IsTerminal(os.Stderr))
	r.Progress = bar.Update
	session, settled, err := r.Start(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "run %s: skill %s, %d rows queued on hub %s for its workers (resume with --resume %s)\n",
		p.RunID, p.SkillID, len(p.Rows)-len(settled), hub.Redact(f.hub), p.RunID)
	res, err := r.Wait(ctx, session, settled)
	bar.Finish()
	if err != nil {
		return fmt.Errorf("run %s: %w; its rows stay on the hub: --resume %s follows them again", p.RunID, err, p.RunID)
	}
	if err := writeReplayReport(out, f.reportPath, res); err != nil {
		return err
	}
	if res.Failed() {
		return fmt.Errorf("run %s: some rows failed or need checking; see the report", p.RunID)
	}
	return nil
}

// moreTabs opens n more tabs of exec's browser, each an executor of its
// own for rows filed in parallel. Tabs, not separate browser contexts, so
// that every row has the profile's login, as the person's own tabs would.
func moreTabs(ctx context.Context, exec replay.Executor, n int) ([]replay.Executor, error) {
	if n == 0 {
		return nil, nil
	}
	b, ok := exec.(*browser.Executor)
	if !ok {
		return nil, errors.New("--parallel needs the browser executor: a desktop has one keyboard and pointer, so its rows run one at a time")
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

// loadSkill reads a skill file, or asks the daemon for a kept skill by id.
func loadSkill(ctx context.Context, c *client.Client, ref string) (id string, doc []byte, err error) {
	if st, err := os.Stat(ref); err == nil && !st.IsDir() {
		doc, err := readFileMax(ref, skills.MaxDocument)
		if err != nil {
			return "", nil, err
		}
		s, err := skills.Parse(doc)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", ref, err)
		}
		id, err := skillbook.ID(s.Name)
		return id, doc, err
	}
	reply, err := c.Skill(ctx, ref, 0)
	if err != nil {
		return "", nil, err
	}
	return reply.ID, []byte(reply.YAML), nil
}

// confirmer asks the person at this terminal to check the first rows.
func confirmer(in io.Reader, out io.Writer, shown bool) func(context.Context, []int, []string) (bool, error) {
	return func(_ context.Context, rowNums []int, snaps []string) (bool, error) {
		fmt.Fprintf(out, "\nrows %v are filled and not submitted.\n", rowNums)
		for i, s := range snaps {
			if s != "" {
				fmt.Fprintf(out, "  row %d as filled: %s\n", rowNums[i], termtext.Line(s))
			}
		}
		if shown {
			fmt.Fprintln(out, "  (the last one is on screen)")
		}
		fmt.Fprint(out, "submit them and run the rest unattended? [y/N] ")
		line, err := bufio.NewReader(in).ReadString('\n')
		if err != nil && line == "" {
			return false, nil
		}
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes", nil
	}
}

func writeReplayReport(out io.Writer, path string, res *replay.Result) error {
	var rs []report.Row
	for _, r := range res.Rows {
		// The report numbers steps from 1, as every message does.
		rs = append(rs, report.Row{N: r.N, Outcome: r.Outcome, Step: r.Step + 1, Action: r.Action, Reason: r.Reason, Via: r.Via,
			Output: r.Output, Files: r.Files, Notes: r.Notes, Healed: r.Healed, ModelCalls: r.ModelCalls, Tokens: r.Tokens, Proofs: r.Proofs})
	}
	committed, failed, skipped, unknown := report.Summary(rs)
	fmt.Fprintf(out, "run %s: %d committed, %d failed, %d skipped, %d unknown\n", res.RunID, committed, failed, skipped, unknown)
	for _, r := range rs {
		if r.Outcome == replay.OutcomeFailed || r.Outcome == replay.OutcomeUnknown || strings.HasPrefix(r.Reason, "refused before the run") {
			step := ""
			if r.Step > 0 {
				step = fmt.Sprintf(" at step %d (%s)", r.Step, r.Action)
			}
			fmt.Fprintf(out, "  row %d %s%s: %s\n", r.N, r.Outcome, step, termtext.Line(r.Reason))
		}
		for _, n := range r.Notes {
			fmt.Fprintf(out, "  row %d: %s\n", r.N, termtext.Line(n))
		}
		for _, h := range r.Healed {
			fmt.Fprintf(out, "  row %d healed: %s\n", r.N, termtext.Line(h))
		}
		if r.Output != "" {
			fmt.Fprintf(out, "  row %d output: %s\n", r.N, termtext.Line(r.Output))
		}
	}
	if path == "" {
		return nil
	}
	if err := report.Write(path, rs); err != nil {
		return err
	}
	fmt.Fprintf(out, "report: %s\n", path)
	return nil
}

// unaccounted returns the header's columns that no parameter reads and
// neither the skill nor the person ignores.
func unaccounted(skill *skills.Skill, header, ignored []string) []string {
	known := map[string]bool{}
	for _, p := range skill.Parameters {
		known[p.Column] = true
	}
	for _, ig := range skill.Ignore {
		known[ig.Column] = true
	}
	for _, c := range ignored {
		known[strings.TrimSpace(c)] = true
	}
	var out []string
	for _, h := range header {
		if h = strings.TrimSpace(h); h != "" && !known[h] {
			out = append(out, h)
		}
	}
	return out
}

func quoteJoin(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
