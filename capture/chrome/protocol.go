// Package chrome is the browser channel's capture source: it takes the steps
// the reprise extension sends over the daemon's WebSocket, as the extension's
// NATS user, on ingest.chrome.>, and hands them to the recording.
//
// The protocol, JSON request/reply (the extension receives on its own
// _INBOX_ext prefix):
//
//	ingest.chrome.hello  HelloRequest             -> Hello
//	ingest.chrome.frame  FrameRequest             -> StepReply
//	ingest.chrome.step   StepRequest              -> StepReply
//
// A step carries the extension's own id, so a step resent after the daemon
// was briefly away is taken once. A pre-action frame travels on its own, as
// soon as the tab is captured, and steps name it by id, before or after it
// arrives: a step stays small and never waits on a screenshot.
//
// A destructive step (a submit, a click on a button that saves) reaches
// the daemon only once its effect settled, 1.5 s or more after the action:
// the extension holds it, and the steps after it, meanwhile, and says so
// in its hellos (Held), every 250 ms while it does. A recording that stops
// answers those hellos with Stopping, which settles them at once, and
// takes them before it ends.
package chrome

import (
	"encoding/json"
)

// HelloRequest is the extension's periodic hello.
type HelloRequest struct {
	// Held counts the steps the extension has not delivered: held until
	// their effect settles, on their way, or still being made in a tab (a
	// field being typed in, sent when the recording stops). It says hello
	// every 250 ms while it holds any.
	Held int `json:"held,omitempty"`
}

// Hello is the answer to the extension's periodic hello: whether to record,
// and where (the badge shows it; other tabs stay silent).
type Hello struct {
	Recording      bool     `json:"recording"`
	RecordingID    string   `json:"recording_id,omitempty"`
	AllowedOrigins []string `json:"allowed_origins"`
	// Stopping asks the extension to settle the effects it waits for now
	// and send what it holds: the recording is stopping.
	Stopping bool `json:"stopping,omitempty"`
	// StoreFailing says the steps are not being kept: the disk holding the
	// data dir is full (the badge says FULL).
	StoreFailing bool `json:"store_failing,omitempty"`
}

// StepRequest is one step from a tab.
type StepRequest struct {
	// ID is the extension's id for the step, unique per recording; a resent
	// step has the same one.
	ID string `json:"id"`
	// Origin is the tab's origin (scheme://host[:port]).
	Origin string `json:"origin"`
	// Step is the trajectory step (SPEC section 4); seq and screenshot_ref
	// are the daemon's to set.
	Step json.RawMessage `json:"step"`
	// Frame is the tab's pre-action screenshot, base64 PNG or JPEG.
	Frame string `json:"frame,omitempty"`
	// FrameID names a frame sent on events.ExtensionFrame, instead of Frame.
	FrameID string `json:"frame_id,omitempty"`
	// FramePending says that frame is still being captured or sent.
	FramePending bool `json:"frame_pending,omitempty"`
}

// FrameRequest is a pre-action frame, sent on its own as soon as the tab is
// captured. An empty Frame says the capture failed: a step that named it
// pending gets the recording's newest frame instead.
type FrameRequest struct {
	ID    string `json:"id"`
	Frame string `json:"frame"`
}

// StepReply answers a StepRequest. Retry says whether sending the same step
// again later may succeed.
type StepReply struct {
	OK        bool   `json:"ok"`
	Recording bool   `json:"recording"`
	Error     string `json:"error,omitempty"`
	Retry     bool   `json:"retry,omitempty"`
}
