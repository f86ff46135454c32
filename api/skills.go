package api

import (
	"time"

	"github.com/reprise-dev/reprise/ops"
)

// SkillBuildRequest asks for a skill from reviewed recordings, on
// events.LocalSkillBuild (saved when no question is open) and
// events.LocalSkillDraft (never saved).
type SkillBuildRequest struct {
	Name       string            `json:"name"`
	Recordings []string          `json:"recordings"`
	Header     []string          `json:"header,omitempty"`
	SampleRows [][]string        `json:"sample_rows,omitempty"`
	Confirm    map[string]string `json:"confirm,omitempty"`
}

// SkillBuildReply is the draft, and whether it saved: a skill with an open
// question does not. Its questions are the co-pilot's CLARIFY_QUESTIONS
// ones: the same thing, on the same wire shape.
type SkillBuildReply struct {
	SkillID   string         `json:"skill_id,omitempty"`
	Revision  uint64         `json:"revision,omitempty"`
	Saved     bool           `json:"saved"`
	Questions []ops.Question `json:"questions,omitempty"`
	Notes     []string       `json:"notes,omitempty"`
	YAML      string         `json:"yaml,omitempty"`
	// Error is Build's and Draft's refusal. On the wire it is sent as the
	// local services' one envelope, ops.ErrorReply, whose "error" field a
	// SkillBuildReply decodes here too.
	Error *ops.Error `json:"error,omitempty"`
}

// SkillConfirmRequest is the person's answers about a recording's
// parameters, on events.LocalSkillConfirm.
type SkillConfirmRequest struct {
	RecordingID string            `json:"recording_id"`
	Answers     map[string]string `json:"answers"`
}

// SkillConfirmReply says the answers were recorded; a refusal is the local
// services' one envelope, ops.ErrorReply.
type SkillConfirmReply struct{}

// SkillGetRequest names a skill, and a version of it (0: the newest), on
// events.LocalSkillGet.
type SkillGetRequest struct {
	SkillID  string `json:"skill_id"`
	Revision uint64 `json:"revision,omitempty"`
}

// SkillVersion is one saved version of a skill, without its document.
type SkillVersion struct {
	ID       string    `json:"skill_id"`
	Revision uint64    `json:"revision"`
	Saved    time.Time `json:"saved"`
}

// SkillGetReply is one version of a skill document.
type SkillGetReply struct {
	SkillVersion
	YAML string `json:"yaml,omitempty"`
}

// SkillListReply answers events.LocalSkillList: the newest version of
// every skill.
type SkillListReply struct {
	Skills []SkillListing `json:"skills"`
}

// SkillListing is one skill in SkillListReply.
type SkillListing struct {
	SkillVersion
	Name       string `json:"name"`
	Parameters int    `json:"parameters"`
	Steps      int    `json:"steps"`
}

// Ops on a skill's proposed revision (SkillPendingRequest.Op).
const (
	SkillPendingPropose = "propose"
	SkillPendingGet     = "get"
	SkillPendingAccept  = "accept"
	SkillPendingDiscard = "discard"
	// SkillPendingImport brings a skill file in: its first revision when
	// no skill has its id, else a proposal made from the newest revision,
	// never a silent change of a kept skill.
	SkillPendingImport = "import"
)

// SkillPendingRequest is one op on skill SkillID's proposed revision, on
// events.LocalSkillPending: propose YAML made from revision Base, get it,
// accept it, discard it, or import YAML.
type SkillPendingRequest struct {
	SkillID string `json:"skill_id"`
	Op      string `json:"op"`
	Base    uint64 `json:"base,omitempty"`
	YAML    string `json:"yaml,omitempty"`
}

// SkillPendingReply is the proposal (get), the revision it was saved as
// (accept, and import of a new skill), or the revision an imported file's
// proposal was made from (import: Base).
type SkillPendingReply struct {
	Base     uint64 `json:"base,omitempty"`
	YAML     string `json:"yaml,omitempty"`
	Revision uint64 `json:"revision,omitempty"`
}
