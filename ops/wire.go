// Package ops serves the wire ops of SPEC section 5 as NATS request/reply on
// shim.<machine_id>.ops: the envelope, the payloads, the error codes, and a
// server that is idempotent by request id and bounded in flight.
package ops

import (
	"encoding/json"
	"fmt"

	"github.com/reprise-dev/reprise/events"
)

// Request types.
const (
	TypeRequestConsent = "REQUEST_RECORDING_CONSENT"
	TypeStart          = "START_RECORDING"
	TypeStop           = "STOP_RECORDING"
	TypeFetch          = "RECORDING_FETCH"
	TypeApplyReview    = "APPLY_RECORDING_REVIEW"
	TypeInterpretTurn  = "INTERPRET_TURN"
	TypeClarifyPrompt  = "CLARIFY_PROMPT"
	TypeDryRunReplay   = "DRY_RUN_REPLAY"
	TypeLocalLLM       = "LOCAL_LLM_COMPLETION"
)

// Reply types.
const (
	TypeConsentResult = "RECORDING_CONSENT_RESULT"
	TypeStarted       = "RECORDING_STARTED"
	TypeSummary       = "RECORDING_SUMMARY"
	TypeData          = "RECORDING_DATA"
	TypeReviewApplied = "RECORDING_REVIEW_APPLIED"
	TypeError         = "ERROR"
	TypeStep          = "RECORDING_STEP"
)

// Error codes.
const (
	CodeInvalidRequest        = "INVALID_REQUEST"
	CodeUnknownType           = "UNKNOWN_TYPE"
	CodeBusy                  = "BUSY"
	CodeInternal              = "INTERNAL"
	CodeNotFound              = "RECORDING_NOT_FOUND"
	CodeChannelUnavailable    = "RECORDING_CHANNEL_UNAVAILABLE"
	CodeAlreadyActive         = "RECORDING_ALREADY_ACTIVE"
	CodeConsentRequired       = "CONSENT_REQUIRED"
	CodeInterpretationMissing = "INTERPRETATION_UNAVAILABLE"
	CodeReviewRequired        = "REVIEW_REQUIRED"
)

// Error is an ERROR reply's payload, and the error a Service returns to
// choose its code. Its message says what to do next.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ConsentRequest is REQUEST_RECORDING_CONSENT's payload.
type ConsentRequest struct {
	Mode                string   `json:"mode"`
	InterpretationRoute string   `json:"interpretation_route"`
	Channels            []string `json:"channels"`
}

// ConsentResult is RECORDING_CONSENT_RESULT's payload.
type ConsentResult struct {
	Approved            bool    `json:"approved"`
	Mode                string  `json:"mode"`
	InterpretationRoute string  `json:"interpretation_route"`
	ConsentToken        string  `json:"consent_token"`
	ExpiresAt           float64 `json:"expires_at"`
}

// StartRequest is START_RECORDING's payload.
type StartRequest struct {
	Mode                string   `json:"mode"`
	InterpretationRoute string   `json:"interpretation_route"`
	Channels            []string `json:"channels"`
	ConsentToken        string   `json:"consent_token"`
}

// Started is RECORDING_STARTED's payload.
type Started struct {
	RecordingID string `json:"recording_id"`
	// InterpretationRoute is the route the recording got, which may let
	// less leave the machine than the one asked for.
	InterpretationRoute string `json:"interpretation_route,omitempty"`
}

// RecordingRef is the payload of STOP_RECORDING and RECORDING_FETCH.
type RecordingRef struct {
	RecordingID string `json:"recording_id"`
}

// Coverage counts a recording's steps by enrichment kind.
type Coverage struct {
	DOM  int `json:"dom"`
	AX   int `json:"ax"`
	None int `json:"none"`
}

// Summary is RECORDING_SUMMARY's payload.
type Summary struct {
	RecordingID        string   `json:"recording_id"`
	StepCount          int      `json:"step_count"`
	EnrichmentCoverage Coverage `json:"enrichment_coverage"`
	DurationSeconds    float64  `json:"duration_seconds"`
	// Warnings are for the person: "this app records poorly".
	Warnings []string `json:"warnings,omitempty"`
}

// ReviewRequest is APPLY_RECORDING_REVIEW's payload.
type ReviewRequest struct {
	RecordingID      string   `json:"recording_id"`
	RemovedStepSeqs  []uint64 `json:"removed_step_seqs"`
	RedactedStepSeqs []uint64 `json:"redacted_step_seqs"`
}

// ReviewApplied is RECORDING_REVIEW_APPLIED's payload.
type ReviewApplied struct {
	RecordingID string `json:"recording_id"`
	StepCount   int    `json:"step_count"`
}

// Data is RECORDING_DATA's payload: the whole recording, after redaction.
type Data = events.Recording

// Ref names the started recording, for STOP_RECORDING and RECORDING_FETCH.
func (s Started) Ref() RecordingRef { return RecordingRef{RecordingID: s.RecordingID} }

// EncodeLiveStep is RECORDING_STEP: the redacted step, unsolicited, on
// rec.<id>.live in co-pilot mode. Its id is <rec_id>:<seq>.
func EncodeLiveStep(recID string, s *events.Step) ([]byte, error) {
	return EncodeReply(TypeStep, fmt.Sprintf("%s:%d", recID, s.Seq), s)
}

// DecodeLiveStep reads a RECORDING_STEP.
func DecodeLiveStep(b []byte) (*events.Step, error) {
	var env Envelope
	if err := json.Unmarshal(b, &env); err != nil || env.Type != TypeStep {
		return nil, fmt.Errorf("not a %s envelope", TypeStep)
	}
	return events.DecodeStepJSON(env.Payload)
}
