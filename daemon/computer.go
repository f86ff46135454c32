package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/computer/script"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/desktop"
)

// serveComputer serves scope grants on this desktop and the scripted
// runtime over them: the daemon's own process and the terminal that runs
// it are never targets.
func (d *Daemon) serveComputer(aud computer.Auditor) (*computer.Service, *script.Runner, error) {
	log := d.log.With("component", "computer")
	runner := &script.Runner{
		Open: func() script.Platform { return script.Open("", log) },
		Dir:  filepath.Join(os.TempDir(), "reprise-computer"),
	}
	policy := computer.PolicyFromEnv(computer.Parents(os.Getpid()))
	policy.Callers = d.callers(log)
	grants := &computer.Service{
		Open:   func() (computer.Desktop, error) { return computer.OpenDesktop("") },
		Policy: policy,
		Audit:  aud, Log: log, Notifier: computer.NewNotifier(),
		Run: func(ctx context.Context, b *computer.Broker, body []byte) (any, error) {
			var req api.ScriptRunRequest
			if err := ops.DecodeLocal("computer run", body, &req); err != nil {
				return nil, err
			}
			reply, err := runner.Run(ctx, b, req)
			return reply.Wire(), err
		},
		RunTimeout: api.ScriptMaxTimeout + 10*time.Second,
		Confirm:    d.consent.confirm,
	}
	// One grant per desktop, across daemons and data dirs: the seat is
	// tied to the display (on X11, a selection the server drops with its
	// holder), not to this daemon.
	seat, err := desktop.NewSeat(os.Getenv("DISPLAY"), "grant", fmt.Sprintf("the daemon of %s (pid %d)", d.home, os.Getpid()))
	if err != nil {
		log.Warn("no seat for grants: another daemon's grant on this desktop is not seen", "err", err)
	} else {
		grants.Seat = seat
	}
	if _, err := grants.Serve(d.nc); err != nil {
		return nil, nil, fmt.Errorf("serve grants: %w", err)
	}
	return grants, runner, nil
}

// ComputerRun implements COMPUTER_RUN: a platform's script, run through
// the grant the person issued; without one it is refused.
func (s *shim) ComputerRun(ctx context.Context, req ops.ComputerRunRequest) (ops.ComputerRunResult, error) {
	if req.TimeoutSeconds < 0 || req.TimeoutSeconds > int(api.ScriptMaxTimeout/time.Second) {
		return ops.ComputerRunResult{}, ops.Errorf(ops.CodeInvalidRequest, "timeout_seconds must be 1 to %d, or 0 for %d", int(api.ScriptMaxTimeout/time.Second), int(api.ScriptDefaultTimeout/time.Second))
	}
	b, err := s.grants.Broker()
	if err != nil {
		return ops.ComputerRunResult{}, ops.Errorf(ops.CodeComputerPlatformUnsupported, "this shim has no desktop to run on: %v", err)
	}
	reply, err := s.runner.Run(ctx, b, api.ScriptRunRequest{GrantID: req.GrantID, Code: req.Code, ReadOnly: req.ReadOnly,
		Timeout: time.Duration(req.TimeoutSeconds) * time.Second})
	if err != nil {
		return ops.ComputerRunResult{}, err // a refusal is an *ops.Error as it is
	}
	return reply.Wire(), nil
}

// callers returns the programs connected to the CLI's port and their
// parents, read at each listing: whoever asked for a run, and the terminal
// it runs in, is never its target. Where they cannot be found it says so
// once.
func (d *Daemon) callers(log *slog.Logger) func() []int {
	u, err := url.Parse(d.srv.ClientURL())
	port, perr := strconv.Atoi(u.Port())
	if err != nil || perr != nil {
		log.Warn("the programs connected to the daemon cannot be refused as targets: no client port", "url", d.srv.ClientURL())
		return nil
	}
	var once sync.Once
	return func() []int {
		pids, err := computer.ConnectedPIDs(port)
		if err != nil {
			once.Do(func() { log.Warn("the programs connected to the daemon cannot be refused as targets", "err", err) })
		}
		return pids
	}
}
