// Package ops serves the wire ops of SPEC section 5 as NATS request/reply on
// shim.<machine_id>.ops: the envelope, the payloads, the error codes, and a
// server that is idempotent by request id and bounded in flight. It also
// runs the daemon's local services on nats.go's services framework, with
// the one refusal envelope they all send (local.go).
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
	// TypeComputerRun runs a desktop script through the active scope
	// grant (issue 22); refused without one.
	TypeComputerRun = "COMPUTER_RUN"
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
	// Co-pilot replies (SPEC 5 names their requests only).
	TypeQuestions      = "CLARIFY_QUESTIONS"
	TypeInterpretation = "INTERPRETATION"
	TypeDryRunResult   = "DRY_RUN_RESULT"
	TypeComputerResult = "COMPUTER_RUN_RESULT"
)

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
	// LostSteps counts steps captured but never stored (the capture queue
	// was full, the disk was full): the recording is incomplete.
	LostSteps uint64 `json:"lost_steps,omitempty"`
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

// ClarifyRequest is CLARIFY_PROMPT's payload: the questions a recording
// raises, for the person. Answers given are recorded on the recording
// first (parameter name to a column, or "const").
type ClarifyRequest struct {
	RecordingID string            `json:"recording_id"`
	Header      []string          `json:"header,omitempty"`
	Answers     map[string]string `json:"answers,omitempty"`
}

// Question is one thing the person must answer before a skill saves.
type Question struct {
	Parameter string   `json:"parameter"`
	Kind      string   `json:"kind"`
	Label     string   `json:"label,omitempty"`
	Step      int      `json:"step"`
	Columns   []string `json:"columns,omitempty"`
	Text      string   `json:"text"`
}

// Questions is CLARIFY_QUESTIONS's payload: those still open.
type Questions struct {
	RecordingID string     `json:"recording_id"`
	Questions   []Question `json:"questions"`
}

// InterpretRequest is INTERPRET_TURN's payload: the steps from FromSeq on,
// told in plain words.
type InterpretRequest struct {
	RecordingID string `json:"recording_id"`
	FromSeq     uint64 `json:"from_seq"`
}

// Told is one step in plain words.
type Told struct {
	Seq  uint64 `json:"seq"`
	Text string `json:"text"`
}

// Interpretation is INTERPRETATION's payload.
type Interpretation struct {
	RecordingID string `json:"recording_id"`
	Steps       []Told `json:"steps"`
}

// DryRunRequest is DRY_RUN_REPLAY's payload: fill rows 1-2 (of Rows, in
// Header's columns) with the skill drafted from the recordings, and submit
// nothing.
type DryRunRequest struct {
	Recordings []string   `json:"recordings"`
	Header     []string   `json:"header"`
	Rows       [][]string `json:"rows"`
}

// DryRunRow is one row of a dry run. Step is the number of the step it
// stopped at, from 1; 0 when it stopped at none.
type DryRunRow struct {
	Row     int    `json:"row"`
	Outcome string `json:"outcome"`
	Step    int    `json:"step"`
	Reason  string `json:"reason,omitempty"`
}

// DryRunResult is DRY_RUN_RESULT's payload.
type DryRunResult struct {
	Rows []DryRunRow `json:"rows"`
}

// ComputerRunRequest is COMPUTER_RUN's payload: JavaScript run by the
// desktop runtime through the grant the person issued (GrantID, if given,
// must be it).
type ComputerRunRequest struct {
	GrantID  string `json:"grant_id,omitempty"`
	Code     string `json:"code"`
	ReadOnly bool   `json:"read_only,omitempty"`
	// TimeoutSeconds is the run's budget: 1 to 300, 120 when 0.
	TimeoutSeconds int `json:"timeout_seconds,omitempty"`
}

// ComputerRunResult is COMPUTER_RUN_RESULT's payload: what the run
// printed, the screenshots it wrote (paths on the shim's machine), its
// return value, and the script's error if it failed: its code is the
// scriptable-tool design's (CodeScriptStaleRef...), its detail the grant
// broker's COMPUTER_ code when the broker refused.
type ComputerRunResult struct {
	Output      []string       `json:"output,omitempty"`
	Screenshots []ComputerShot `json:"screenshots,omitempty"`
	Return      string         `json:"return,omitempty"`
	ReadOnly    bool           `json:"read_only"`
	Error       *Error         `json:"error,omitempty"`
}

// ComputerShot is a screenshot a run wrote.
type ComputerShot struct {
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Target string `json:"target"`
}
