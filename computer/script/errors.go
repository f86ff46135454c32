package script

import (
	"context"
	"errors"
	"fmt"

	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/ops"
)

// The scriptable-tool design's error codes: a script tells refusals apart
// by err.code, and every message starts with the code.
const (
	PermissionDenied       = "PermissionDenied"
	CaptureFailed          = "CaptureFailed"
	InputFailed            = "InputFailed"
	BackgroundUnavailable  = "BackgroundUnavailable"
	WindowNotFound         = "WindowNotFound"
	InvalidTarget          = "InvalidTarget"
	InvalidKey             = "InvalidKey"
	InvalidCoordinateFrame = "InvalidCoordinateFrame"
	StaleRef               = "StaleRef"
	AxUnsupported          = "AxUnsupported"
	AxFailed               = "AxFailed"
	Timeout                = "Timeout"
	Closed                 = "Closed"
	Internal               = "Internal"
)

// Codes of reprise's own beside the design's: what bounds a run in a
// daemon that serves more than one caller.
const (
	// Busy refuses a run while another holds the grant's runtime: one
	// runtime runs one script at a time, and a caller is answered at once
	// rather than queued behind a run that may spin for its whole budget.
	Busy = "Busy"
	// MemoryLimit is a run interrupted for holding more of the daemon's
	// heap than its limit; the runtime is reset after it.
	MemoryLimit = "MemoryLimit"
)

// Error is a failure a script sees as a thrown Error with .code, and with
// .grantCode when the grant broker refused (a COMPUTER_ code).
type Error struct {
	Code      string `json:"code"`
	GrantCode string `json:"grant_code,omitempty"`
	Message   string `json:"message"`
}

// Error reads as the run's error on the wire does (ops.ComputerRunError).
func (e *Error) Error() string { return (*ops.ComputerRunError)(e).Error() }

func fail(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// grantCodes say which design code a broker refusal is, by what the script
// was doing: a revision that moved under coordinates is a frame gone
// stale, under an element ref a stale ref.
func fromBroker(err error, coords bool) *Error {
	var ce *computer.Error
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
	case computer.CodeStaleBasis, computer.CodeOutOfBounds:
		code = InvalidCoordinateFrame
	case computer.CodeStaleRevision:
		code = StaleRef
		if coords {
			code = InvalidCoordinateFrame
		}
	case computer.CodeElementNotFound:
		code = StaleRef
	case computer.CodeTargetNotFound, computer.CodeNoTarget:
		code = WindowNotFound
	case computer.CodeNotFocused:
		code = BackgroundUnavailable
	case computer.CodeInvalid:
		code = InvalidTarget
	case computer.CodeUnsupported:
		code = InputFailed
	}
	return &Error{Code: code, GrantCode: ce.Code, Message: ce.Message}
}
