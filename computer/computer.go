// Package computer is how a program operates a person's desktop safely
// (the scope-grant design behind issue 22): one grant at a time binds one
// window, every action is checked against the grant's revision, the
// geometry its coordinates were measured on, its budget and its idle
// expiry, and some windows are refused whatever the options (reprise's
// own, any while a password is being typed, apps elevated above reprise,
// the person's deny list). Stop revokes the grant and keeps a program from
// issuing itself another for 30 s.
//
// This file and the broker are portable logic over a Desktop, which each
// OS provides; nothing here touches the screen.
package computer

import (
	"context"
	"strconv"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// Scopes of a grant.
const (
	// ScopeDesktop binds the front window reprise may operate, and may be
	// rebound to any other such window.
	ScopeDesktop = "desktop"
	// ScopeWindow is pinned to one window: rebinding is out of scope.
	ScopeWindow = "window"
)

// Capture modes of a grant.
const (
	CaptureA11y   = "a11y-only" // the default: the accessibility tree only
	CapturePixels = "a11y-and-pixels"
)

// Issuers of a grant.
const (
	IssuerAgent = "agent" // a program: refused during Stop's cooldown
	IssuerUser  = "user"  // the person: clears the cooldown
)

// refuse is the broker's refusal: an *ops.Error with one of the
// registry's COMPUTER_ codes. Its message never carries typed text or what
// a window shows.
func refuse(code, format string, args ...any) *ops.Error {
	return ops.Errorf(code, format, args...)
}

// Window is a top-level window as the OS lists it. It travels to the CLI
// in each api.Target, so api owns it; the alias spares a rename of its
// hundred uses across the broker, each OS's desktop and package script.
type Window = api.Window

// Desktop is what the broker needs of the OS.
type Desktop interface {
	// Windows lists the top-level windows, front to back.
	Windows(ctx context.Context) ([]Window, error)
	// SecureInput says the OS reports secure input (macOS), or the focus
	// is in a password field: no capture, no input, anywhere.
	SecureInput(ctx context.Context) (bool, error)
}

// identity is a window's Identity from what the OS says of its owner.
func identity(pid int, started, exe, class string) string {
	return strconv.Itoa(pid) + "\x00" + started + "\x00" + exe + "\x00" + class
}
