// Package consent is the shim's consent (SPEC section 6): a person on this
// machine approves a recording, and only then does the shim issue a
// short-lived, single-use token bound to the recording's mode, interpretation
// route and channels.
//
// The pieces, in the order a REQUEST_RECORDING_CONSENT uses them:
//
//   - Request says what would be recorded; Kind names that kind of recording.
//   - Approver asks: a remembered choice (Choices) first, else every
//     available Prompter at once (the terminal, an OS dialog, a Pending
//     queue answered with `reprise consent approve`); the first answer wins.
//   - Issuer.Issue signs a token after an approval; Issuer.Consume checks it
//     at START_RECORDING and burns it in the CONSENT bucket.
//   - Serve answers the local CLI on local.consent.*, which the platform's
//     account cannot reach: the platform can ask, never approve.
package consent

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/ops"
)

// ErrInvalidRequest is wrapped by every error of Request.Validate and
// ParseKind.
var ErrInvalidRequest = errors.New("invalid consent request")

// Modes of a recording (SPEC section 5).
const (
	ModeDemonstration = "demonstration"
	ModeCopilot       = "copilot"
)

// Interpretation routes (SPEC section 10). Only RouteScreenshotsToCloud sends
// screen images off the machine, and only it gets the calibrated prompt.
const (
	RouteExtractThenCloud   = "extract_then_cloud"
	RouteLocalVLM           = "local_vlm"
	RouteScreenshotsToCloud = "screenshots_to_cloud"
)

// Capture channels (SPEC section 9).
const (
	ChannelFloor     = "floor"
	ChannelBrowser   = "browser"
	ChannelDesktopAX = "desktop_ax"
)

var (
	modes    = []string{ModeDemonstration, ModeCopilot}
	routes   = []string{RouteExtractThenCloud, RouteLocalVLM, RouteScreenshotsToCloud}
	channels = []string{ChannelFloor, ChannelBrowser, ChannelDesktopAX}
)

// Request is what a recording would capture and where its interpretation
// goes: the three things a consent token is bound to. It is the wire's
// REQUEST_RECORDING_CONSENT payload, ops.ConsentRequest, with this
// package's rules on it; the two convert freely.
type Request ops.ConsentRequest

// Normalize sorts the channels and drops duplicates, so two requests for the
// same channel set compare equal. It copies the slice; the caller's is left
// as it was.
func (r *Request) Normalize() {
	cs := slices.Clone(r.Channels)
	slices.Sort(cs)
	r.Channels = slices.Compact(cs)
}

// Validate reports the first field that is not one of its allowed values.
// Call Normalize first to accept duplicated channels.
func (r Request) Validate() error {
	if !slices.Contains(modes, r.Mode) {
		return fmt.Errorf("%w: mode %q: want %s", ErrInvalidRequest, r.Mode, strings.Join(modes, " or "))
	}
	if !slices.Contains(routes, r.InterpretationRoute) {
		return fmt.Errorf("%w: interpretation_route %q: want %s", ErrInvalidRequest, r.InterpretationRoute, strings.Join(routes, ", "))
	}
	if len(r.Channels) == 0 {
		return fmt.Errorf("%w: channels: want at least one of %s", ErrInvalidRequest, strings.Join(channels, ", "))
	}
	for i, c := range r.Channels {
		if !slices.Contains(channels, c) {
			return fmt.Errorf("%w: channels[%d] %q: want one of %s", ErrInvalidRequest, i, c, strings.Join(channels, ", "))
		}
		if i > 0 && slices.Contains(r.Channels[:i], c) {
			return fmt.Errorf("%w: channels[%d] %q: listed twice", ErrInvalidRequest, i, c)
		}
	}
	return nil
}

// Kind names this kind of recording: mode, route and the sorted channels,
// as "copilot.extract_then_cloud.browser-floor". It is what a remembered
// choice is kept under, and a valid KV key. ParseKind reverses it.
func (r Request) Kind() string {
	n := r
	n.Normalize()
	return n.Mode + "." + n.InterpretationRoute + "." + strings.Join(n.Channels, "-")
}

// ParseKind returns the Request that Kind names, or an error wrapping
// ErrInvalidRequest that says what is wrong with it. Only the form Kind
// writes is accepted, so one kind of recording has one name.
func ParseKind(kind string) (Request, error) {
	parts := strings.Split(kind, ".")
	if len(parts) != 3 {
		return Request{}, fmt.Errorf("%w: kind %q: want mode.route.channels, such as %s", ErrInvalidRequest, kind,
			Request{Mode: ModeCopilot, InterpretationRoute: RouteExtractThenCloud, Channels: []string{ChannelFloor, ChannelBrowser}}.Kind())
	}
	r := Request{Mode: parts[0], InterpretationRoute: parts[1]}
	if parts[2] != "" {
		r.Channels = strings.Split(parts[2], "-")
	}
	r.Normalize()
	if err := r.Validate(); err != nil {
		return Request{}, fmt.Errorf("kind %q: %w", kind, err)
	}
	if r.Kind() != kind {
		return Request{}, fmt.Errorf("%w: kind %q: channels must be sorted and listed once: %s", ErrInvalidRequest, kind, r.Kind())
	}
	return r, nil
}

// equal reports whether two normalized requests are the same.
func (r Request) equal(o Request) bool {
	return r.Mode == o.Mode && r.InterpretationRoute == o.InterpretationRoute && slices.Equal(r.Channels, o.Channels)
}
