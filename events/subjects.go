package events

import (
	"fmt"
	"strconv"
	"strings"
	"time"
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

// Subject spaces outside the streams.
const (
	// ExtensionSubjectPrefix is the only subject space the browser
	// extension may publish to: the chrome source's ingest requests.
	ExtensionSubjectPrefix = "ingest.chrome"
	// ExtensionInboxPrefix is the extension's private inbox prefix, so its
	// replies reach no other user.
	ExtensionInboxPrefix = "_INBOX_ext"
	// LocalSubjectPrefix is for requests only the local user may make
	// (status, consent, skills, recordings): the platform's account cannot
	// reach it.
	LocalSubjectPrefix = "local"
	// ExtensionAll is every subject the extension may publish to.
	ExtensionAll = ExtensionSubjectPrefix + "." + Rest
	// ExtensionInboxAll is every reply subject of the extension's.
	ExtensionInboxAll = ExtensionInboxPrefix + "." + Rest
	// LocalAll is every local request subject.
	LocalAll = LocalSubjectPrefix + "." + Rest
	// ReplayAll is every replay run's events.
	ReplayAll = "run.>"
	// LiveAll is every recording's co-pilot stream.
	LiveAll = "rec.*.live"
	// AskAll is every replay run's questions to the person (AskSubject):
	// the run listens, `reprise runs answer` asks. Core NATS only: no
	// stream stores an answer.
	AskAll = LocalSubjectPrefix + ".ask.>"
)

// AskSubject is where run runID refuses answers that are not sealed (from
// a reprise that predates sealing); replies to answers go under it too.
func AskSubject(runID string) string { return LocalSubjectPrefix + ".ask." + runID }

// AskQuestionSubject is where run runID waits for the sealed answer to one
// question. id is derived from the question's token (replay.AskKey), so
// only who holds the token can name it before an answer is sent; any CLI
// connection may still read it, which is why what travels there is sealed.
func AskQuestionSubject(runID, id string) string { return AskSubject(runID) + ".q." + id }

// The local services' subjects (nats.go micro services the daemon runs):
// only the local user may request them.
const (
	LocalStatus          = LocalSubjectPrefix + ".status"
	LocalPair            = LocalSubjectPrefix + ".extension.pair"
	LocalReplayKey       = LocalSubjectPrefix + ".replay.key"
	LocalAuditVerify     = LocalSubjectPrefix + ".audit.verify"
	LocalRecordingsList  = LocalSubjectPrefix + ".recordings.list"
	LocalRecordingsFrame = LocalSubjectPrefix + ".recordings.frame"
	// LocalRecordingsImport stores a recording read from another tool's
	// file (ops.ImportRequest).
	LocalRecordingsImport = LocalSubjectPrefix + ".recordings.import"
	LocalSkillBuild       = LocalSubjectPrefix + ".skill.build"
	// LocalSkillDraft generalizes without the review gate and saves
	// nothing: the questions a recording raises, for the co-pilot to ask.
	LocalSkillDraft = LocalSubjectPrefix + ".skill.draft"
	// LocalSkillConfirm records the person's answers on a recording.
	LocalSkillConfirm = LocalSubjectPrefix + ".skill.confirm"
	LocalSkillGet     = LocalSubjectPrefix + ".skill.get"
	LocalSkillList    = LocalSubjectPrefix + ".skill.list"
	// LocalSkillPending proposes, reads, accepts or drops a skill's
	// proposed revision (one a model healed).
	LocalSkillPending   = LocalSubjectPrefix + ".skill.pending"
	LocalConsentList    = LocalSubjectPrefix + ".consent.list"
	LocalConsentApprove = LocalSubjectPrefix + ".consent.approve"
	LocalConsentDeny    = LocalSubjectPrefix + ".consent.deny"
	LocalConsentChoices = LocalSubjectPrefix + ".consent.choices"
	LocalConsentForget  = LocalSubjectPrefix + ".consent.forget"
	// The scope grants on this desktop (package computer).
	LocalComputerTargets  = LocalSubjectPrefix + ".computer.targets"
	LocalComputerGrant    = LocalSubjectPrefix + ".computer.grant"
	LocalComputerDescribe = LocalSubjectPrefix + ".computer.describe"
	LocalComputerRevoke   = LocalSubjectPrefix + ".computer.revoke"
	LocalComputerStop     = LocalSubjectPrefix + ".computer.stop"
	LocalComputerRun      = LocalSubjectPrefix + ".computer.run"
	LocalComputerHold     = LocalSubjectPrefix + ".computer.hold"
	LocalComputerAllow    = LocalSubjectPrefix + ".computer.allow"
)

// The chrome source's ingest requests, the only subjects the extension
// may publish to.
const (
	ExtensionHello = ExtensionSubjectPrefix + ".hello"
	ExtensionStep  = ExtensionSubjectPrefix + ".step"
	ExtensionFrame = ExtensionSubjectPrefix + ".frame"
)

// ServiceDiscoveryPrefix is where nats.go's services framework answers
// PING, INFO and STATS: $SRV.<verb>[.<name>[.<id>]].
const ServiceDiscoveryPrefix = "$SRV"

// ServiceDiscovery is the discovery subject of verb (PING, INFO, STATS)
// for every service.
func ServiceDiscovery(verb string) string { return ServiceDiscoveryPrefix + "." + verb }

// ServiceDiscoveryNamed matches the discovery subjects of verb for one
// service by name, or one instance: $SRV.<verb>.>.
func ServiceDiscoveryNamed(verb string) string { return ServiceDiscovery(verb) + "." + Rest }

// Where workers on a hub take rows, and ask a run's coordinator for them
// (package replay/hub).
const (
	// HubRowsPrefix is the start of StreamHubRows's subjects:
	// hub.rows.<run>.
	HubRowsPrefix = "hub.rows."
	// HubGrantPrefix is the start of a run's coordinator's subject,
	// hub.grant.<run>: core NATS, nothing is stored.
	HubGrantPrefix = "hub.grant."
	// HubAskPrefix is the start of the subject a run's coordinator takes
	// its workers' questions for the person on, hub.ask.<run>: core NATS.
	HubAskPrefix = "hub.ask."
	// HubNoticePrefix is the start of the subject a run's coordinator
	// hears its workers' notices on, hub.notice.<run>: core NATS.
	HubNoticePrefix = "hub.notice."
)

// HubRowsSubject is where run runID's rows wait for a worker.
func HubRowsSubject(runID string) string { return HubRowsPrefix + runID }

// HubGrantSubject is where run runID's coordinator grants its rows.
func HubGrantSubject(runID string) string { return HubGrantPrefix + runID }

// HubAskSubject is where run runID's coordinator takes its questions.
func HubAskSubject(runID string) string { return HubAskPrefix + runID }

// HubNoticeSubject is where run runID's coordinator hears that a worker
// cannot file its rows.
func HubNoticeSubject(runID string) string { return HubNoticePrefix + runID }

// CaptureSubject is where a source's raw, sealed steps for one recording go.
func CaptureSubject(recID string) string { return "capture." + recID }

// RecordingSubject is where a recording's redacted steps and lifecycle events go.
func RecordingSubject(recID, event string) string { return "rec." + recID + "." + event }

// LiveSubject is the co-pilot's unacknowledged stream of redacted steps.
func LiveSubject(recID string) string { return "rec." + recID + ".live" }

// RecordingFilter matches every event of one recording.
func RecordingFilter(recID string) string { return "rec." + recID + ".*" }

// RecordingsFilter matches one event of every recording.
func RecordingsFilter(event string) string { return "rec.*." + event }

// CaptureRecording is the recording a CAPTURE subject is for.
func CaptureRecording(subject string) (recID string, ok bool) {
	return strings.CutPrefix(subject, "capture.")
}

// ReplayFilter matches one event of every row of a run.
func ReplayFilter(runID, event string) string { return "run." + runID + ".row.*." + event }

// ReplaySubject is where a replay run's events for one row go.
func ReplaySubject(runID string, row int, event string) string {
	return fmt.Sprintf("run.%s.row.%d.%s", runID, row, event)
}

// AuditSubject is where content-free audit entries of one kind go.
func AuditSubject(kind string) string { return "audit." + kind }

// OpsSubject is where the shim serves the wire ops of SPEC section 5.
func OpsSubject(machineID string) string { return "shim." + machineID + ".ops" }

// Stamp returns t as a step timestamp: seconds since the Unix epoch, with
// the fraction (SPEC section 4, "ts").
func Stamp(t time.Time) float64 {
	return float64(t.UnixNano()) / 1e9
}

// StepMsgID is the Nats-Msg-Id that makes publishing a step idempotent.
func StepMsgID(recID string, seq uint64) string {
	return recID + ":" + strconv.FormatUint(seq, 10)
}

// StepSeq reads the step seq back from a StepMsgID of recID (a review's
// copy may add ":review<n>"), without opening anything.
func StepSeq(recID, id string) (uint64, error) {
	rest, ok := strings.CutPrefix(id, recID+":")
	if !ok {
		return 0, fmt.Errorf("message id does not name recording %s", recID)
	}
	n, _, _ := strings.Cut(rest, ":")
	seq, err := strconv.ParseUint(n, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("message id of %s has no step seq", recID)
	}
	return seq, nil
}

// ValidToken reports whether s can be one token of a subject: not empty, and
// free of the separators and wildcards that would let an id address other
// subjects.
func ValidToken(s string) bool {
	return s != "" && len(s) <= 128 && !strings.ContainsAny(s, ".*> \t\r\n\x00")
}
