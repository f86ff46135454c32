package api

import (
	"time"

	"github.com/reprise-dev/reprise/ops"
)

// ConsentPrompt is the confirmation shown to the person for one recording
// request, with its copy already written. The JSON form is what
// `reprise consent list` shows.
type ConsentPrompt struct {
	// ID names the prompt for `reprise consent approve ID`.
	ID string `json:"id"`
	// Request is what would be recorded: the REQUEST_RECORDING_CONSENT
	// that asked.
	Request ops.ConsentRequest `json:"request"`
	// Kind is the request's kind (consent.Request(Request).Kind()), what a
	// remembered answer is kept under.
	Kind string `json:"kind"`
	// Requester is who asks, in words: "the platform", "reprise record".
	Requester string `json:"requester"`
	// Title and Body are the copy; Body is plain text with blank lines
	// between paragraphs and "• " list items.
	Title string `json:"title"`
	Body  string `json:"body"`
	// Calibrated is true for the screenshots_to_cloud prompt (SPEC section 6).
	Calibrated bool `json:"calibrated"`
	// Approve and Deny are the button labels.
	Approve string `json:"approve"`
	Deny    string `json:"deny"`
	// Once says the answer is for this time only: no "remember this
	// choice?" follows (a grant of the desktop is never remembered).
	Once bool `json:"once,omitempty"`
}

// ConsentChoice is a remembered answer for one kind of recording.
type ConsentChoice struct {
	// Kind is the kind of recording the answer covers.
	Kind string `json:"kind"`
	// Approved is the answer.
	Approved bool `json:"approved"`
	// DecidedAt is when the person gave it.
	DecidedAt time.Time `json:"decided_at"`
}

// ConsentAnswerRequest is the body of events.LocalConsentApprove ({id,
// remember}) and events.LocalConsentDeny ({id}).
type ConsentAnswerRequest struct {
	ID       string `json:"id"`
	Remember bool   `json:"remember,omitempty"`
}

// ConsentForgetRequest is the body of events.LocalConsentForget: one
// kind, or all.
type ConsentForgetRequest struct {
	Kind string `json:"kind,omitempty"`
	All  bool   `json:"all,omitempty"`
}

// ConsentReply is every reply of the consent service; each subject fills
// its own field. A refusal is the local services' one envelope,
// ops.ErrorReply.
type ConsentReply struct {
	Prompts   []ConsentPrompt `json:"prompts,omitempty"`
	Choices   []ConsentChoice `json:"choices,omitempty"`
	OK        bool            `json:"ok,omitempty"`
	Forgotten int             `json:"forgotten,omitempty"`
}
