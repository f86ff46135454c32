package script

import (
	"context"
	"errors"
	"fmt"

	"github.com/reprise-dev/reprise/ops"
)

// The scriptable-tool design's error codes: a script tells refusals apart
// by err.code, and every message starts with the code. They are the
// registry's script group (ops/errors.json), in the design's casing.
const (
	PermissionDenied       = ops.CodeScriptPermissionDenied
	CaptureFailed          = ops.CodeScriptCaptureFailed
	InputFailed            = ops.CodeScriptInputFailed
	BackgroundUnavailable  = ops.CodeScriptBackgroundUnavailable
	WindowNotFound         = ops.CodeScriptWindowNotFound
	InvalidTarget          = ops.CodeScriptInvalidTarget
	InvalidKey             = ops.CodeScriptInvalidKey
	InvalidCoordinateFrame = ops.CodeScriptInvalidCoordinateFrame
	StaleRef               = ops.CodeScriptStaleRef
	AxUnsupported          = ops.CodeScriptAxUnsupported
	AxFailed               = ops.CodeScriptAxFailed
	Timeout                = ops.CodeScriptTimeout
	Closed                 = ops.CodeScriptClosed
	Internal               = ops.CodeScriptInternal
)

// Codes of reprise's own beside the design's: what bounds a run in a
// daemon that serves more than one caller.
const (
	// Busy refuses a run while another holds the grant's runtime: one
	// runtime runs one script at a time, and a caller is answered at once
	// rather than queued behind a run that may spin for its whole budget.
	Busy = ops.CodeScriptBusy
	// MemoryLimit is a run interrupted for holding more of the daemon's
	// heap than its limit; the runtime is reset after it.
	MemoryLimit = ops.CodeScriptMemoryLimit
)

// Error is a failure a script sees as a thrown Error with .code, and with
// .grantCode when the grant broker refused (a COMPUTER_ code). On the wire
// it is an *ops.Error (Wire).
type Error struct {
	Code      string
	GrantCode string
	Message   string
}

// Error reads as the run's error on the wire does.
func (e *Error) Error() string { return e.Wire().Error() }

// Wire is e as COMPUTER_RUN_RESULT carries it: the design's code, and the
// broker's as the detail.
func (e *Error) Wire() *ops.Error {
	return &ops.Error{Code: e.Code, Message: e.Message, Detail: e.GrantCode}
}

func fail(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// grantCodes say which design code a broker refusal is, by what the script
// was doing: a revision that moved under coordinates is a frame gone
// stale, under an element ref a stale ref.
func fromBroker(err error, coords bool) *Error {
	var ce *ops.Error
	if !errors.As(err, &ce) {
		var se *Error
		if errors.As(err, &se) {
			return se
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return fail(Timeout, "%v", err)
		}
		return fail(Internal, "%v", err)
	}
	code := PermissionDenied
	switch ce.Code {
	case ops.CodeComputerStaleBasis, ops.CodeComputerOutOfBounds:
		code = InvalidCoordinateFrame
	case ops.CodeComputerStaleRevision:
		code = StaleRef
		if coords {
			code = InvalidCoordinateFrame
		}
	case ops.CodeComputerElementNotFound:
		code = StaleRef
	case ops.CodeComputerTargetNotFound, ops.CodeComputerNoTarget:
		code = WindowNotFound
	case ops.CodeComputerTargetNotFocused:
		code = BackgroundUnavailable
	case ops.CodeComputerInvalidRequest:
		code = InvalidTarget
	case ops.CodeComputerPlatformUnsupported:
		code = InputFailed
	}
	return &Error{Code: code, GrantCode: ce.Code, Message: ce.Message}
}
