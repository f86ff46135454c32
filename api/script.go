package api

import "time"

// A desktop script's budget: what a run may ask for, and what it gets
// when it asks for none. A caller of events.LocalComputerRun waits as
// long as the run may take.
const (
	ScriptDefaultTimeout = 120 * time.Second
	ScriptMinTimeout     = time.Second
	ScriptMaxTimeout     = 300 * time.Second
)

// ScriptRunRequest is one desktop script run asked for from the CLI, on
// events.LocalComputerRun. Its reply is ops.ComputerRunResult, the same
// as the COMPUTER_RUN wire op's.
type ScriptRunRequest struct {
	// GrantID, if set, must be the active grant's; empty means the
	// active grant, whichever it is.
	GrantID  string `json:"grant_id,omitempty"`
	Code     string `json:"code"`
	ReadOnly bool   `json:"read_only,omitempty"`
	// Timeout is the run's budget, clamped to [ScriptMinTimeout,
	// ScriptMaxTimeout]; 0 is ScriptDefaultTimeout.
	Timeout time.Duration `json:"timeout,omitempty"`
}
