package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/skills"
)

// Local says what replays a run's steps on this machine: the browser, or
// the desktop under the daemon's scope grant and the desktop lease.
type Local struct {
	// Kind is replay/pick's: auto (or empty), browser or desktop.
	Kind string
	// Browser is the browser executor's options, its ProfileDir held by
	// the caller for the run; Skill and SkillDir are filled from the skill.
	Browser browser.Options
	// SkillFile is the skill's file when it was given as one: what it names
	// by a relative path (a client certificate) is found next to it.
	SkillFile string
	// Idle is how long nobody may have used the pointer or keyboard before
	// each desktop input; 0 or less waits for no one.
	Idle    time.Duration
	NoMarks bool
	Frame   func(ctx context.Context, recID, ref string) ([]byte, error)
	// Grants is the daemon's grant broker, which a desktop replay holds
	// the desktop's grant from for the run.
	Grants Grants
	// Holder names the run to another replay waiting for the desktop
	// ("run run_..."); Waiting is told who holds it while this one waits.
	Holder  string
	Waiting func(holder string)
	// Parallel, AutoParallel, Runs and Keep are Executor's.
	Parallel     int
	AutoParallel bool
	Runs         string
	Keep         int
	Logger       *slog.Logger
}

// Executor is what replays skill's steps as l says, and release lets go of
// what it holds (the desktop's grant and lease), after the run.
func (l Local) Executor(ctx context.Context, skill *skills.Skill) (Executor, func(), error) {
	quiet := l.Idle
	if quiet <= 0 {
		quiet = -1 // the desktop executor's "no wait"
	}
	b := l.Browser
	b.Skill = skill.Browser
	if l.SkillFile != "" {
		b.SkillDir = filepath.Dir(l.SkillFile)
	}
	ex := Executor{Parallel: l.Parallel, AutoParallel: l.AutoParallel, Runs: l.Runs, Keep: l.Keep, Options: pick.Options{
		Kind: l.Kind, Quiet: quiet, NoMarks: l.NoMarks, Frame: l.Frame, Logger: l.Logger, Browser: b,
	}}
	if kind, _ := pick.Kind(l.Kind, skill); kind != pick.Desktop {
		return ex, func() {}, nil
	}
	guard, release, err := HoldDesktop(ctx, l.Grants, l.Logger)
	if err != nil {
		return Executor{}, nil, err
	}
	ex.Guard = guard
	if ex.Lease, err = desktop.NewLease(os.Getenv("DISPLAY"), fmt.Sprintf("%s, pid %d", l.Holder, os.Getpid())); err != nil {
		release()
		return Executor{}, nil, err
	}
	ex.Lease.Logger = l.Logger
	ex.Lease.Waiting = l.Waiting
	return ex, release, nil
}

// Grants is the daemon's grant broker as a desktop replay uses it: the
// CLI's client.
type Grants interface {
	HoldGrant(ctx context.Context, req api.HoldRequest) (api.GrantReply, error)
	Allow(ctx context.Context, id string, in api.Intent) error
	Revoke(ctx context.Context, id string) error
}

// grantGuard puts each desktop input to the daemon's broker under the
// grant the replay holds: the person's Stop, their deny list, reprise's own
// windows and a password being typed refuse it there.
type grantGuard struct {
	g  Grants
	id string
}

func (g grantGuard) Allow(ctx context.Context, in desktop.Intent) error {
	return g.g.Allow(ctx, g.id, in)
}

// HoldDesktop takes the desktop's grant for a replay and returns its guard
// and its release. Where the daemon has no grants for this OS yet, the
// replay goes on unguarded, and says so in the log.
func HoldDesktop(ctx context.Context, g Grants, log *slog.Logger) (desktop.Guard, func(), error) {
	held, err := g.HoldGrant(ctx, api.HoldRequest{})
	var refused *ops.Error
	if errors.As(err, &refused) && refused.Code == ops.CodeComputerPlatformUnsupported {
		log.Warn("desktop replay without a scope grant: grants are not built for this OS yet", "reason", refused.Message)
		return nil, func() {}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("a desktop replay holds this desktop's grant: %w", err)
	}
	release := func() {
		// Stop may have revoked it already: nothing left to release.
		_ = g.Revoke(context.WithoutCancel(ctx), held.ID)
	}
	return grantGuard{g: g, id: held.ID}, release, nil
}
