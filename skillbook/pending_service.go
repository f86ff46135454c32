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
	cur, err := s.Book.Get(ctx, req.SkillID, 0)
	if req.Op == api.SkillPendingImport {
		return s.importSkill(ctx, req, cur, err)
	}
	if err != nil {
		return nil, ops.Errorf(ops.CodeSkillNotFound, "no skill %q here", short(req.SkillID))
	}
	var reply api.SkillPendingReply
	switch req.Op {
	case api.SkillPendingPropose:
		if _, err := checkProposal(req.YAML); err != nil {
			return nil, err
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
		return nil, ops.Errorf(ops.CodeInvalidRequest, "op %q: want propose, get, accept, discard or import", short(req.Op))
	}
	return json.Marshal(reply)
}

// importSkill saves an imported skill file as the first revision of a new
// skill, or proposes it as the next revision of the kept skill cur (what
// Get found under its id, or getErr): a person sees and accepts a change
// to a skill they run, as they do a healed one.
func (s *Service) importSkill(ctx context.Context, req api.SkillPendingRequest, cur Entry, getErr error) ([]byte, error) {
	sk, err := checkProposal(req.YAML)
	if err != nil {
		return nil, err
	}
	if id, err := ID(sk.Name); err != nil || id != req.SkillID {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "the skill is named %q, which is not skill %q", short(sk.Name), short(req.SkillID))
	}
	var reply api.SkillPendingReply
	switch {
	case errors.Is(getErr, ErrNotFound):
		rev, err := s.Book.Save(ctx, req.SkillID, []byte(req.YAML))
		if err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
		reply.Revision = rev
		s.Log.Info("skill imported", "skill_id", req.SkillID, "revision", rev)
	case getErr != nil:
		return nil, ops.Errorf(ops.CodeInternal, "%v", getErr)
	default:
		if err := s.Book.Propose(ctx, req.SkillID, cur.Revision, []byte(req.YAML)); err != nil {
			return nil, ops.Errorf(ops.CodeInternal, "%v", err)
		}
		reply.Base = cur.Revision
		s.Log.Info("skill file proposed", "skill_id", req.SkillID, "base", cur.Revision)
	}
	return json.Marshal(reply)
}

// checkProposal parses YAML, refusing what is not a valid skill.
func checkProposal(doc string) (*skills.Skill, error) {
	sk, err := skills.Parse([]byte(doc))
	if err != nil {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "the proposed revision is not a skill: %v", err)
	}
	if err := sk.Validate(); err != nil {
		return nil, ops.Errorf(ops.CodeInvalidRequest, "the proposed revision does not validate: %v", err)
	}
	return sk, nil
}
