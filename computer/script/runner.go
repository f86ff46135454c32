package script

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/computer"
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

// RunRequest is one run asked for from the CLI or over the wire.
type RunRequest struct {
	// GrantID, if set, must be the active grant's; empty means the
	// active grant, whichever it is.
	GrantID  string        `json:"grant_id,omitempty"`
	Code     string        `json:"code"`
	ReadOnly bool          `json:"read_only,omitempty"`
	Timeout  time.Duration `json:"timeout,omitempty"`
}

// RunReply is a run's result, and the script's error if it failed: what
// it printed and captured before the failure is kept.
type RunReply struct {
	Result
	Error *Error `json:"error,omitempty"`
}

// Run runs req through the active grant of b. An error is a refusal
// before the run (no grant, a grant that is not the one named); a script
// that fails, and a run refused while another is in progress (Busy), is a
// RunReply with Error.
func (rn *Runner) Run(ctx context.Context, b *computer.Broker, req RunRequest) (RunReply, error) {
	if req.Code == "" {
		return RunReply{}, &computer.Error{Code: computer.CodeInvalid, Message: "a run needs code"}
	}
	g, ok := b.Describe()
	if !ok || req.GrantID != "" && req.GrantID != g.ID {
		return RunReply{}, &computer.Error{Code: computer.CodeNoGrant, Message: "no grant is active for this run: the person grants one with `reprise computer grant`"}
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
