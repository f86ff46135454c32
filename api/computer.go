package api

import (
	"image"
	"time"
)

// Window is a top-level window as the OS lists it. The desktop broker
// (package computer) works on it; it travels in each Target.
type Window struct {
	// ID is the OS's handle, as text: an X11 window id, an HWND, a
	// CGWindowID. It names the window for the grant's lifetime only.
	ID     string
	App    string // the process image name without its extension
	Title  string
	PID    int
	Bounds image.Rectangle // screen pixels
	// Focused says it has the keyboard focus.
	Focused bool
	// Identity is who owns the window, as the OS tells it: its process
	// (pid, start time, executable) and its class. A window id the OS
	// reuses for another application's window has another Identity, and
	// ends a grant bound to the first.
	Identity string
	// Integrity is the owning process's Windows integrity level (0
	// elsewhere); above reprise's own, the window is refused.
	Integrity int
}

// Target is a window the desktop lists for a grant: refused ones with
// their code and reason, never dropped.
type Target struct {
	Window
	Refused string `json:"refused,omitempty"` // an error code, "" when reprise may operate it
	Reason  string `json:"reason,omitempty"`
}

// TargetListReply answers events.LocalComputerTargets: the desktop's
// windows, front to back, never null.
type TargetListReply struct {
	Targets []Target `json:"targets"`
}

// CreateGrantRequest is a grant the person issues from the CLI, on
// events.LocalComputerGrant.
type CreateGrantRequest struct {
	Scope    string `json:"scope,omitempty"`
	WindowID string `json:"window_id,omitempty"`
	Capture  string `json:"capture,omitempty"`
	Budget   int    `json:"budget,omitempty"`
	Idle     string `json:"idle_expiry,omitempty"` // a Go duration
}

// GrantConfirmWait is how long the person has to confirm a grant issued
// as theirs; no answer in that time is a no. A caller of
// events.LocalComputerGrant waits at least as long.
const GrantConfirmWait = 2 * time.Minute

// GrantReply is a grant as the CLI sees it: the reply of
// events.LocalComputerGrant, Describe, Stop and Hold. Active is false
// when there is none.
type GrantReply struct {
	Active bool   `json:"active"`
	ID     string `json:"grant_id,omitempty"`
	Scope  string `json:"scope,omitempty"`
	Issuer string `json:"issuer,omitempty"`
	// Target is the bound window's app and title.
	App      string `json:"app,omitempty"`
	Title    string `json:"title,omitempty"`
	WindowID string `json:"window_id,omitempty"`
	Revision uint64 `json:"revision,omitempty"`
	Capture  string `json:"capture,omitempty"`
	Budget   int    `json:"budget_left,omitempty"`
}

// HoldRequest is a program's grant for a replay, on
// events.LocalComputerHold: desktop scope, bound to whichever window each
// step lands in.
type HoldRequest struct {
	Budget int    `json:"budget,omitempty"`
	Idle   string `json:"idle_expiry,omitempty"` // a Go duration
	Pixels bool   `json:"pixels,omitempty"`
}

// RevokeRequest ends a grant, on events.LocalComputerRevoke.
type RevokeRequest struct {
	GrantID string `json:"grant_id"`
}

// Intent is an input a replay is about to send, addressed as its executor
// addresses it: to the window its step names (by title), at a screen
// point, to the keyboard focus, or to an element its own tree resolved.
type Intent struct {
	Kind     string       `json:"kind"`
	Window   string       `json:"window,omitempty"`
	Point    *image.Point `json:"point,omitempty"`
	Keyboard bool         `json:"keyboard,omitempty"`
	TextLen  int          `json:"text_length,omitempty"`
	Role     string       `json:"role,omitempty"`
}

// AllowRequest asks for one input under a held grant, on
// events.LocalComputerAllow.
type AllowRequest struct {
	GrantID string `json:"grant_id"`
	Intent
}
