package events

import (
	"fmt"
	"strconv"
	"strings"
)

// Lifecycle and content events of a recording in RECORDINGS.
const (
	RecStarted  = "started"
	RecStep     = "step"
	RecStopped  = "stopped"
	RecReviewed = "reviewed"
	RecEvicted  = "evicted"
	// RecConfirmed holds the person's answers about the recording's
	// parameters (which column, or the same for every row).
	RecConfirmed = "confirmed"
)

// recordingEvents are the only rec.<id>.<event> subjects RECORDINGS stores;
// rec.<id>.live is a core subject and must stay out of the stream.
var recordingEvents = []string{RecStarted, RecStep, RecStopped, RecReviewed, RecEvicted, RecConfirmed}

// CaptureSubject is where a source's raw, sealed steps for one recording go.
func CaptureSubject(recID string) string { return "capture." + recID }

// RecordingSubject is where a recording's redacted steps and lifecycle events go.
func RecordingSubject(recID, event string) string { return "rec." + recID + "." + event }

// LiveSubject is the co-pilot's unacknowledged stream of redacted steps.
func LiveSubject(recID string) string { return "rec." + recID + ".live" }

// ReplaySubject is where a replay run's events for one row go.
func ReplaySubject(runID string, row int, event string) string {
	return fmt.Sprintf("run.%s.row.%d.%s", runID, row, event)
}

// AuditSubject is where content-free audit entries of one kind go.
func AuditSubject(kind string) string { return "audit." + kind }

// OpsSubject is where the shim serves the wire ops of SPEC section 5.
func OpsSubject(machineID string) string { return "shim." + machineID + ".ops" }

// StepMsgID is the Nats-Msg-Id that makes publishing a step idempotent.
func StepMsgID(recID string, seq uint64) string {
	return recID + ":" + strconv.FormatUint(seq, 10)
}

// ValidToken reports whether s can be one token of a subject: not empty, and
// free of the separators and wildcards that would let an id address other
// subjects.
func ValidToken(s string) bool {
	return s != "" && len(s) <= 128 && !strings.ContainsAny(s, ".*> \t\r\n\x00")
}
