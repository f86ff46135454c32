package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/session"
	"github.com/reprise-dev/reprise/skills"
)

// workerFlags are `reprise worker`'s settings.
type workerFlags struct {
	hub                     hubFlags
	profile, name, skillDir string
	profiles                []string
	parallel                int
	show, desktop, noMarks  bool
	idle                    time.Duration
}

// hubFlags name a hub, its credentials and its key, as `replay --hub` and
// `worker` both take them.
type hubFlags struct{ urls, key, credentials string }

func (h *hubFlags) add(fl *pflag.FlagSet, what string) {
	fl.StringVar(&h.urls, "hub", "", what)
	fl.StringVar(&h.credentials, "hub-credentials", "", "a file only you can read holding the hub's user:password (or token, or a NATS .creds file); default: $"+hub.CredentialsEnv)
	fl.StringVar(&h.key, "hub-key", "", "the hub key file, made on the first run on the hub (default: hub.key in the data dir); copy it to every machine of the hub")
}

// open checks the URLs, then opens the hub as session.NewHub does.
func (h *hubFlags) open(home string, run bool) (*session.Hub, error) {
	if err := checkHubArgv(h.urls); err != nil {
		return nil, err
	}
	return session.NewHub(home, h.urls, h.key, h.credentials, run)
}

// checkHubArgv refuses a --hub that is not a URL, or carries credentials.
func checkHubArgv(urls string) error {
	var bad *hub.URLError
	switch err := hub.CheckArgv(urls); {
	case errors.As(err, &bad) && errors.Is(err, hub.ErrCredentialsInArgv):
		return fmt.Errorf("--hub %s: %w. Give the URL without them, and put user:password in a file only you can read (chmod 600), passed as --hub-credentials FILE, or in the environment as %s",
			bad.URL, hub.ErrCredentialsInArgv, hub.CredentialsEnv)
	case errors.As(err, &bad):
		return fmt.Errorf("--hub: %s is not a URL", bad.URL)
	default:
		return err
	}
}

func newWorkerCmd(g *globals) *cobra.Command {
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker --hub nats://...",
		Short: "File rows of runs started on a hub, with this machine's browser",
		Long: `Join a hub (a NATS JetStream cluster; see docs/scale-out.md, "More than one machine") and file
the rows that ` + "`reprise replay --hub`" + ` runs put on it, with a Chromium of its own, each row
exactly once across every worker: the run's coordinator grants each row to one worker,
and a row's record is claimed on the hub before it is filed. Rows and skills arrive
sealed and MACed with the hub key, which every machine of the hub holds (--hub-key);
their values stay in memory. A row made under another hub key stops the worker, which
says which key to copy. The hub's user and password never go on the command line:
put user:password in a file only you can read (--hub-credentials FILE), or in
` + hub.CredentialsEnv + `. Stop it with Ctrl-C: the row it was filing goes back to the hub,
and the next worker settles it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runWorker(cmd, g, f) },
	}
	fl := cmd.Flags()
	f.hub.add(fl, "the hub's NATS URLs, comma separated, without credentials (required)")
	fl.IntVar(&f.parallel, "parallel", 1, "file this many rows at a time, each in its own tab (1-16)")
	fl.StringVar(&f.profile, "profile", "", "the browser profile of skills that name none: a name kept in the data dir, or a folder's path (default: worker-profile in the data dir)")
	fl.StringSliceVar(&f.profiles, "profiles", nil, "the named profiles (kept in the data dir, logged in here) this worker offers to skills whose browser.profile names one, comma separated; rows of a skill naming another go to a worker that has it")
	fl.StringVar(&f.skillDir, "skill-dir", ".", "the folder a hub skill's relative certificate and CA files are read from on this machine")
	fl.StringVar(&f.name, "name", "", "this worker's name in the hub's claims (default: host name and process id)")
	fl.BoolVar(&f.show, "show", false, "open a visible browser window")
	fl.BoolVar(&f.desktop, "desktop", false, "offer this machine's desktop to desktop skills' rows, one at a time, under the grant this worker holds from the daemon here (reprise stop revokes it)")
	fl.DurationVar(&f.idle, "idle", desktop.DefaultQuiet, "with --desktop: wait until nobody used the pointer or keyboard this long before each input (0: no wait)")
	fl.BoolVar(&f.noMarks, "no-marks", false, "with --desktop: show no marks where input lands")
	return cmd
}

func runWorker(cmd *cobra.Command, g *globals, f workerFlags) error {
	if f.hub.urls == "" {
		return errors.New("--hub is required: the NATS URLs of the hub to take rows from")
	}
	if f.parallel < 1 || f.parallel > session.MaxParallel {
		return fmt.Errorf("--parallel %d: want 1 to %d rows at a time", f.parallel, session.MaxParallel)
	}
	if f.idle < 0 {
		return fmt.Errorf("--idle %s: want 0 (no wait) or more", f.idle)
	}
	for _, name := range f.profiles {
		if !skills.ValidProfile(name) {
			return fmt.Errorf("--profiles %q: a profile is a name of letters, digits, '-' and '_', kept in the data dir", name)
		}
	}
	home, err := g.resolveHome()
	if err != nil {
		return err
	}
	h, err := f.hub.open(home, false)
	if err != nil {
		return err
	}
	if f.name == "" {
		host, _ := os.Hostname()
		f.name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	log := g.log
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	profile, release, err := browser.HoldNamedProfile(home, f.profile, "worker-profile", "worker "+f.name)
	if err != nil {
		return err
	}
	defer release()
	profiles, releaseAll, err := browser.HoldProfiles(home, f.profiles, "worker "+f.name)
	if err != nil {
		return err
	}
	defer releaseAll()
	// A worker that was killed left its rows' upload files here.
	uploads := filepath.Join(home, "hub-uploads", f.name)
	if err := os.RemoveAll(uploads); err != nil {
		return fmt.Errorf("clear the upload files a killed worker left: %w", err)
	}
	var desk *session.WorkerDesktop
	if f.desktop {
		c, err := g.dial()
		if err != nil {
			return fmt.Errorf("--desktop: the worker holds the desktop's grant from the daemon on this machine: %w", err)
		}
		defer c.Close()
		desk = &session.WorkerDesktop{Grants: c, Idle: f.idle, NoMarks: f.noMarks}
	}
	err = session.Worker{Hub: h, Name: f.name, Parallel: f.parallel, Logger: log, Profiles: profiles, Files: uploads, Desktop: desk,
		Browser: browser.Options{ProfileDir: profile, Show: f.show, Logger: log, NoSandbox: browser.SandboxOff(),
			SkillDir: f.skillDir, Passphrase: keychainSecret},
		Ready: func() {
			fmt.Fprintf(cmd.OutOrStdout(), "worker %s: taking rows from hub %s, %d at a time\n", f.name, hub.Redact(f.hub.urls), f.parallel)
		},
	}.Run(ctx)
	return wordKeyError(err)
}
