package script

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/ops"
)

// Runner keeps the runtime of the active grant: its globals, frames and
// refs live as long as the grant, and a new grant starts afresh. It opens
// the platform at the first run.
type Runner struct {
	Open func() Platform
	Dir  string // screenshots go to Dir/<grant id>
	// MemoryLimit is each run's (Options.MemoryLimit): 0 is
	// DefaultMemoryLimit. It is the daemon's to set, not the caller's.
	MemoryLimit int64

	mu   sync.Mutex
	plat *Platform
	rt   *Runtime
}

// RunReply is a run's result, and the script's error if it failed: what
// it printed and captured before the failure is kept. Wire is what the
// CLI and a platform are told of it.
type RunReply struct {
	Result
	Error *Error
}

// Wire is r as both the local run service (events.LocalComputerRun) and
// the COMPUTER_RUN wire op answer it: one shape for both.
func (r RunReply) Wire() ops.ComputerRunResult {
	out := ops.ComputerRunResult{Output: r.Output, Return: r.Return, ReadOnly: r.ReadOnly}
	for _, sh := range r.Screenshots {
		out.Screenshots = append(out.Screenshots, ops.ComputerShot(sh))
	}
	if r.Error != nil {
		out.Error = r.Error.Wire()
	}
	return out
}

// Run runs req through the active grant of b. An error is a refusal
// before the run (no grant, a grant that is not the one named); a script
// that fails, and a run refused while another is in progress (Busy), is a
// RunReply with Error.
func (rn *Runner) Run(ctx context.Context, b *computer.Broker, req api.ScriptRunRequest) (RunReply, error) {
	if req.Code == "" {
		return RunReply{}, ops.Errorf(ops.CodeComputerInvalidRequest, "a run needs code")
	}
	g, ok := b.Describe()
	if !ok || req.GrantID != "" && req.GrantID != g.ID {
		return RunReply{}, ops.Errorf(ops.CodeComputerNoGrant, "no grant is active for this run: the person grants one first")
	}
	rt := rn.runtime(b, g.ID)
	res, err := rt.Run(ctx, req.Code, Options{ReadOnly: req.ReadOnly, Timeout: req.Timeout, MemoryLimit: rn.MemoryLimit})
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = fail(Internal, "%v", err)
		}
		return RunReply{Result: res, Error: e}, nil
	}
	return RunReply{Result: res}, nil
}

func (rn *Runner) runtime(b *computer.Broker, grantID string) *Runtime {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.plat == nil {
		p := rn.Open()
		rn.plat = &p
	}
	if rn.rt == nil || rn.rt.GrantID() != grantID || rn.rt.broker != b {
		rn.rt = New(b, grantID, *rn.plat, filepath.Join(rn.Dir, grantID))
	}
	return rn.rt
}

// Close releases the platform.
func (rn *Runner) Close() error {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.plat == nil || rn.plat.Close == nil {
		return nil
	}
	err := rn.plat.Close()
	rn.plat, rn.rt = nil, nil
	return err
}
