package skillbook

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills"
)

// Ops on a skill's proposed revision.
const (
	PendingPropose = "propose"
	PendingGet     = "get"
	PendingAccept  = "accept"
	PendingDiscard = "discard"
)

// PendingRequest is one op on skill SkillID's proposed revision: propose
// YAML made from revision Base, get it, accept it or discard it.
type PendingRequest struct {
	SkillID string `json:"skill_id"`
	Op      string `json:"op"`
	Base    uint64 `json:"base,omitempty"`
	YAML    string `json:"yaml,omitempty"`
}

// PendingReply is the proposal (get), or the revision it was saved as
// (accept).
type PendingReply struct {
	Base     uint64 `json:"base,omitempty"`
	YAML     string `json:"yaml,omitempty"`
	Revision uint64 `json:"revision,omitempty"`
}

func (s *Service) pending(ctx context.Context, data []byte) ([]byte, error) {
	var req PendingRequest
	if err := ops.DecodePayload("skill pending", data, &req); err != nil {
		return nil, err
	}
	if _, err := s.Book.Get(ctx, req.SkillID, 0); err != nil {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "no skill %q here; `reprise skill list` shows those kept", short(req.SkillID))
	}
	var reply PendingReply
	switch req.Op {
	case PendingPropose:
		sk, err := skills.Parse([]byte(req.YAML))
		if err != nil {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "the proposed revision is not a skill: %v", err)
		}
		if err := sk.Validate(); err != nil {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "the proposed revision does not validate: %v", err)
		}
		if err := s.Book.Propose(ctx, req.SkillID, req.Base, []byte(req.YAML)); err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
	case PendingGet:
		p, err := s.Book.Pending(ctx, req.SkillID)
		if errors.Is(err, ErrNoPending) {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "skill %s has no proposed revision", req.SkillID)
		}
		if err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
		reply.Base, reply.YAML = p.Base, string(p.Doc)
	case PendingAccept:
		rev, err := s.Book.Accept(ctx, req.SkillID)
		if errors.Is(err, ErrNoPending) {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "skill %s has no proposed revision", req.SkillID)
		}
		if err != nil {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "%v", err)
		}
		reply.Revision = rev
	case PendingDiscard:
		if err := s.Book.Discard(ctx, req.SkillID); err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
	default:
		return nil, ops.Errorf(ops.CodeInvalidRequest, "op %q: want propose, get, accept or discard", short(req.Op))
	}
	return json.Marshal(reply)
}
