// Package audit is the shim's tamper-evident audit log (SPEC section 7): a
// chain of content-free entries in the AUDIT stream, each carrying an
// HMAC-SHA256 under the audit key over its own fields and the MAC of the
// entry before it.
//
// An entry says that something happened (a recording started, a consent
// token was used, a replay row committed), never what was recorded: every
// kind has a short allow-list of fields, and every field a value shape
// (an id, a number, a lower-case code) that cannot hold prose. Append refuses
// anything else.
//
// Log appends; Verify (or VerifyEntries over messages already read) checks
// the chain and names where it was changed; Serve answers `reprise audit
// verify` for the daemon, which holds the key; Tail reads entries without it.
// What the daemon keeps outside the stream is tagged under the key too: the
// chain's head (SealedCheckpoint), the most the chain has held (HighWater),
// and entries the stream could not take yet (Pending).
package audit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/reprise-dev/reprise/events"
)

// Kinds of entry. Each is published to events.AuditSubject(kind).
const (
	KindConsentIssued     = "consent.issued"
	KindConsentUsed       = "consent.used"
	KindConsentRefused    = "consent.refused"
	KindRecordingStarted  = "recording.started"
	KindRecordingStopped  = "recording.stopped"
	KindRecordingReviewed = "recording.reviewed"
	KindRecordingEvicted  = "recording.evicted"
	KindSkillBuilt        = "skill.built"
	KindReplayRun         = "replay.run"
	KindReplayRow         = "replay.row"
	// Scope grants on the desktop (package computer): every grant, rebind
	// and action, content-free.
	KindGrantCreated       = "computer.grant.created"
	KindGrantRebound       = "computer.grant.rebound"
	KindGrantRebindRefused = "computer.grant.rebind_refused"
	KindGrantRevoked       = "computer.grant.revoked"
	KindGrantStopped       = "computer.grant.stopped"
	KindGrantExpired       = "computer.grant.expired"
	KindGrantBudgetSpent   = "computer.grant.budget_spent"
	KindGrantTargetClosed  = "computer.grant.target_closed"
	KindGrantNotConfirmed  = "computer.grant.not_confirmed"
	KindGrantRefused       = "computer.grant.refused"
	KindComputerStopped    = "computer.stopped"
	KindComputerAction     = "computer.action"
	KindClipboardRead      = "computer.clipboard.read"
	KindClipboardWrite     = "computer.clipboard.write"
	// KindCheckpointLost is written by the daemon when it starts and finds
	// the chain's remembered head missing or not its own: a tail cut off
	// before then could no longer be seen, and Verify says so for good.
	KindCheckpointLost = "audit.checkpoint_lost"
	// KindPendingLost is written by the daemon when it starts and finds
	// that entries it kept to write later (see Pending) are gone: their
	// file deleted, rolled back or damaged. What they recorded is in no
	// chain, and Verify says so for good.
	KindPendingLost = "audit.pending_lost"
)

// Field names an entry may carry, each on the allow-list of some kinds.
const (
	FieldRecordingID = "recording_id" // an id token
	FieldRunID       = "run_id"       // an id token
	FieldSkillID     = "skill_id"     // an id token
	FieldRevision    = "revision"     // a decimal number
	FieldChannels    = "channels"     // comma-separated codes, such as "browser,floor"
	FieldStepCount   = "step_count"   // a decimal number
	FieldRow         = "row"          // a decimal number
	FieldCount       = "count"        // a decimal number
	FieldRoute       = "route"        // a code, such as "extract_then_cloud"
	FieldMode        = "mode"         // a code
	FieldReason      = "reason"       // a code, such as "expired"; never prose
	FieldOutcome     = "outcome"      // a code, such as "committed"
	FieldGrantID     = "grant_id"     // an id token
	FieldScope       = "scope"        // a code: desktop or window
	FieldIssuer      = "issuer"       // a code: user or agent
	FieldTargetApp   = "target_app"   // the bound window's app, as a code
	FieldCapture     = "capture"      // a code: a11y-only or a11y-and-pixels
	FieldBudget      = "budget"       // a decimal number
	FieldAction      = "action"       // a code, such as "click"
	FieldResult      = "result"       // a code: ok or the refusal's
	FieldUID         = "uid"          // an element uid, as a code
	FieldRole        = "role"         // a code, such as "textbox"
	FieldTextLength  = "text_length"  // a decimal number: typed text by length only
	FieldWhy         = "why"          // a code
	FieldConfirmedBy = "confirmed_by" // a code: the prompter the person answered (zenity, terminal)
	FieldHighWater   = "high_water"   // a decimal number: the entry seq the high-water mark remembered
)

// allowed is each kind's allow-list of fields.
var allowed = map[string][]string{
	KindConsentIssued:      {FieldMode, FieldRoute, FieldChannels},
	KindConsentUsed:        {FieldRecordingID, FieldMode, FieldRoute, FieldChannels},
	KindConsentRefused:     {FieldMode, FieldRoute, FieldChannels, FieldReason},
	KindRecordingStarted:   {FieldRecordingID, FieldMode, FieldRoute, FieldChannels},
	KindRecordingStopped:   {FieldRecordingID, FieldStepCount, FieldReason},
	KindRecordingReviewed:  {FieldRecordingID, FieldStepCount, FieldCount, FieldOutcome},
	KindRecordingEvicted:   {FieldRecordingID, FieldReason},
	KindSkillBuilt:         {FieldSkillID, FieldRevision, FieldCount, FieldStepCount, FieldRoute, FieldOutcome},
	KindReplayRun:          {FieldRunID, FieldCount, FieldMode, FieldOutcome},
	KindReplayRow:          {FieldRunID, FieldRow, FieldOutcome, FieldReason},
	KindCheckpointLost:     {FieldReason, FieldCount, FieldHighWater},
	KindPendingLost:        {FieldReason, FieldCount},
	KindGrantCreated:       grantFields,
	KindGrantRebound:       grantFields,
	KindGrantRebindRefused: grantFields,
	KindGrantRevoked:       grantFields,
	KindGrantStopped:       grantFields,
	KindGrantExpired:       grantFields,
	KindGrantBudgetSpent:   grantFields,
	KindGrantTargetClosed:  grantFields,
	KindGrantNotConfirmed:  {FieldScope, FieldIssuer, FieldTargetApp, FieldCapture, FieldBudget, FieldWhy},
	KindGrantRefused:       {FieldScope, FieldIssuer, FieldCapture, FieldBudget, FieldResult},
	KindComputerStopped:    {},
	KindComputerAction:     grantFields,
	KindClipboardRead:      grantFields,
	KindClipboardWrite:     grantFields,
}

// grantFields are what a scope grant's entries may carry.
var grantFields = []string{FieldGrantID, FieldScope, FieldIssuer, FieldTargetApp, FieldRevision, FieldCapture,
	FieldBudget, FieldAction, FieldResult, FieldUID, FieldRole, FieldTextLength, FieldWhy, FieldConfirmedBy}

// Kinds returns every kind of entry, sorted.
func Kinds() []string {
	ks := make([]string, 0, len(allowed))
	for k := range allowed {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// AllowedFields returns the fields an entry of kind may carry, or nil for an
// unknown kind.
func AllowedFields(kind string) []string { return slices.Clone(allowed[kind]) }

var (
	// ErrUnknownKind is wrapped when an entry's kind is not one of the Kind constants.
	ErrUnknownKind = errors.New("unknown audit kind")
	// ErrFieldNotAllowed is wrapped when an entry carries a field its kind
	// does not allow, or a value that is not of the field's shape: the guard
	// that keeps content out of the audit log.
	ErrFieldNotAllowed = errors.New("field not allowed in an audit entry")
	// ErrMalformed is wrapped by every error of DecodeEntry.
	ErrMalformed = errors.New("malformed audit entry")
)

// MACSize is the length of an entry's MAC and Prev.
const MACSize = sha256.Size

// MinKeySize is the shortest audit key accepted.
const MinKeySize = 32

// maxFieldLen bounds a field's value; ids are at most 128 bytes (events.ValidToken).
const maxFieldLen = 256

// Entry is one link of the audit chain. Seq counts from 1 with no gaps; Time
// is seconds since the Unix epoch; Prev is the MAC of entry Seq-1 (empty for
// the first); MAC is HMAC-SHA256 under the audit key of the canonical
// encoding of everything else (see macInput).
type Entry struct {
	Seq    uint64            `json:"seq" msgpack:"seq"`
	Time   float64           `json:"time" msgpack:"time"`
	Kind   string            `json:"kind" msgpack:"kind"`
	Fields map[string]string `json:"fields,omitempty" msgpack:"fields,omitempty"`
	Prev   []byte            `json:"prev,omitempty" msgpack:"prev,omitempty"`
	MAC    []byte            `json:"mac" msgpack:"mac"`
}

// CheckFields reports the first field of fields that kind does not allow, or
// whose value is not of that field's shape. The error names the field.
func CheckFields(kind string, fields map[string]string) error {
	allow, ok := allowed[kind]
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownKind, kind)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same field is named first every time
	for _, k := range keys {
		if !slices.Contains(allow, k) {
			return fmt.Errorf("%w: %q is not on the allow-list of %s (%v)", ErrFieldNotAllowed, k, kind, allow)
		}
		if err := checkValue(k, fields[k]); err != nil {
			return fmt.Errorf("%w: %q: %w", ErrFieldNotAllowed, k, err)
		}
	}
	return nil
}

// checkValue keeps prose out: every value is an id, a number or codes.
func checkValue(field, v string) error {
	if v == "" || len(v) > maxFieldLen {
		return fmt.Errorf("value must be 1 to %d bytes", maxFieldLen)
	}
	switch field {
	case FieldRecordingID, FieldRunID, FieldSkillID, FieldGrantID:
		if !events.ValidToken(v) {
			return errors.New("value must be an id: no dots, wildcards, spaces or control characters")
		}
		return nil
	case FieldStepCount, FieldRow, FieldCount, FieldRevision, FieldBudget, FieldTextLength, FieldHighWater:
		for _, c := range []byte(v) {
			if c < '0' || c > '9' {
				return errors.New("value must be a decimal number")
			}
		}
		return nil
	}
	for _, c := range []byte(v) {
		ok := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' ||
			c == ',' && field == FieldChannels
		if !ok {
			return errors.New("value must be a lower-case code ([a-z0-9_-], commas between channels)")
		}
	}
	return nil
}

// Validate checks the shape of e, not its MAC: a known kind, allowed fields,
// and MACs of the right length.
func (e *Entry) Validate() error {
	if e.Seq == 0 {
		return errors.New("seq must be at least 1")
	}
	if math.IsNaN(e.Time) || math.IsInf(e.Time, 0) || e.Time < 0 {
		return fmt.Errorf("time %v is not a time", e.Time)
	}
	if err := CheckFields(e.Kind, e.Fields); err != nil {
		return err
	}
	if len(e.MAC) != MACSize {
		return fmt.Errorf("mac is %d bytes; want %d", len(e.MAC), MACSize)
	}
	if len(e.Prev) != 0 && len(e.Prev) != MACSize {
		return fmt.Errorf("prev is %d bytes; want %d or none", len(e.Prev), MACSize)
	}
	return nil
}

// macInput is the canonical encoding the MAC covers: a domain tag, then
// seq, time, kind, the fields sorted by name, and prev, every variable-length
// part prefixed with its length so no two entries share an input.
func macInput(dst []byte, e *Entry) []byte {
	dst = append(dst, "reprise/audit/v1\x00"...)
	dst = binary.BigEndian.AppendUint64(dst, e.Seq)
	dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(e.Time))
	dst = appendBytes(dst, []byte(e.Kind))
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = binary.AppendUvarint(dst, uint64(len(keys)))
	for _, k := range keys {
		dst = appendBytes(dst, []byte(k))
		dst = appendBytes(dst, []byte(e.Fields[k]))
	}
	return appendBytes(dst, e.Prev)
}

func appendBytes(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}

// computeMAC returns the MAC e should carry under key.
func computeMAC(key []byte, e *Entry) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(macInput(make([]byte, 0, 128), e))
	return m.Sum(nil)
}

// checkKey refuses a key too short to be an audit key.
func checkKey(key []byte) error {
	if len(key) < MinKeySize {
		return fmt.Errorf("audit key is %d bytes; want at least %d", len(key), MinKeySize)
	}
	return nil
}
