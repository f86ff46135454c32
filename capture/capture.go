// Package capture holds what every capture source shares (SPEC section 9):
// the Source interface a channel provider implements, the Sink it hands its
// steps to, the bounded Queue that keeps the OS input path from ever waiting
// on the log, and the Registry that says which channels this build and this
// machine can serve.
//
// Each source lives in its own sub-package (scripted, and later quartz,
// winhook, x11, chrome...) and proves it fits with
// `var _ capture.Source = (*Source)(nil)`; capturetest is the conformance
// suite every one of them runs.
package capture

import (
	"context"
	"errors"

	"github.com/reprise-dev/reprise/events"
)

// Channel names, as on the wire ("channels" in START_RECORDING).
const (
	ChannelFloor     = "floor"      // input events with pre-action frames, any app
	ChannelBrowser   = "browser"    // DOM-enriched steps from the browser extension
	ChannelDesktopAX = "desktop_ax" // accessibility enrichment on the desktop
)

// KnownChannels returns the channel names this build knows, in a fixed order.
func KnownChannels() []string {
	return []string{ChannelFloor, ChannelBrowser, ChannelDesktopAX}
}

// KnownChannel reports whether name is one of the channels above.
func KnownChannel(name string) bool {
	switch name {
	case ChannelFloor, ChannelBrowser, ChannelDesktopAX:
		return true
	}
	return false
}

// Recording modes a Session can carry (SPEC section 5, START_RECORDING).
const (
	ModeDemonstration = "demonstration"
	ModeCopilot       = "copilot"
)

// Session is what a source is told about the recording it serves.
type Session struct {
	RecordingID string
	Mode        string   // "demonstration" or "copilot"
	Channels    []string // the channels the recording asked for
	// AllowedOrigins limits the browser channel to these origins
	// (scheme://host[:port]); empty means the first demonstrated origin.
	AllowedOrigins []string
}

// ErrSinkFull is returned by Sink.Emit when its bounded queue is full; the
// step is dropped and counted. A source carries on after it: the next step
// may fit.
var ErrSinkFull = errors.New("capture: sink full, step dropped")

// ErrSinkClosed is returned by Sink.Emit once the sink accepts no more steps
// (the recording is stopping). A source may stop producing when it sees it.
var ErrSinkClosed = errors.New("capture: sink closed")

// Sink receives a source's steps. Emit never blocks: it queues the step and
// returns at once (an OS input callback must return immediately). It is safe
// for concurrent use. The sink assigns Seq; sources leave Step.Seq zero.
type Sink interface {
	Emit(step events.Step) error
}

// FrameSink is what a sink may also offer: keeping a pre-action frame, by
// the reference a step will carry in screenshot_ref. The sink decides how
// (sealed, in the FRAMES store); a source never does. PutFrame may block on
// storage, so an input callback hands frames to its own goroutine first.
type FrameSink interface {
	PutFrame(ctx context.Context, ref string, image []byte) error
}

// StoreWatcher is what a source may also offer: being told when the steps it
// emits stop being stored (the disk holding the data dir is full) and when
// they are stored again, so the person learns it where they are working.
// StoreFailing must return at once.
type StoreWatcher interface {
	StoreFailing(failing bool)
}

// Source is one capture channel provider (SPEC section 9).
//
// A source emits steps; it never decides where they are stored. Every step
// it emits has Seq zero, Actor "human", the floor (an action and a cursor of
// two coordinates) and TS set to the moment of the action; capturetest
// checks all of it.
type Source interface {
	// Name identifies the source ("x11", "chrome", "scripted"); it is stable
	// for the source's life.
	Name() string
	// Channels lists the channels the source provides, all of them known.
	Channels() []string
	// Available probes whether the source can run here and now; when it
	// cannot, reason says why and what to do about it, without any value
	// the person typed or saw.
	Available() (ok bool, reason string)
	// Start begins capturing for s and returns once capture is running;
	// steps go to sink until Stop is called or ctx ends.
	Start(ctx context.Context, s Session, sink Sink) error
	// Stop ends capture; after it returns the source calls sink.Emit no
	// more. Safe to call twice, and without Start.
	Stop() error
}
