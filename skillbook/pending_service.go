package skillbook

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills"
)

func (s *Service) pending(ctx context.Context, data []byte) ([]byte, error) {
	var req api.SkillPendingRequest
	if err := ops.DecodePayload("skill pending", data, &req); err != nil {
		return nil, err
	}
	if _, err := s.Book.Get(ctx, req.SkillID, 0); err != nil {
		return nil, ops.Errorf(ops.CodeSkillNotFound, "no skill %q here", short(req.SkillID))
	}
	var reply api.SkillPendingReply
	switch req.Op {
	case api.SkillPendingPropose:
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
	case api.SkillPendingGet:
		p, err := s.Book.Pending(ctx, req.SkillID)
		if errors.Is(err, ErrNoPending) {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "skill %s has no proposed revision", req.SkillID)
		}
		if err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
		reply.Base, reply.YAML = p.Base, string(p.Doc)
	case api.SkillPendingAccept:
		rev, err := s.Book.Accept(ctx, req.SkillID)
		if errors.Is(err, ErrNoPending) {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "skill %s has no proposed revision", req.SkillID)
		}
		if err != nil {
			return nil, ops.Errorf(ops.CodeInvalidRequest, "%v", err)
		}
		reply.Revision = rev
	case api.SkillPendingDiscard:
		if err := s.Book.Discard(ctx, req.SkillID); err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
	default:
		return nil, ops.Errorf(ops.CodeInvalidRequest, "op %q: want propose, get, accept or discard", short(req.Op))
	}
	return json.Marshal(reply)
}
