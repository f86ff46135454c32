package skillbook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/skills/learn"
)

// Auditor records content-free audit entries.
type Auditor interface {
	Append(ctx context.Context, kind string, fields map[string]string) error
}

// timeout bounds one request: a build may OCR a recording's frames.
const timeout = 3 * time.Minute

// ocrBudget is the part of a build's timeout that OCR of the recordings'
// unresolved frames may take together: a long floor recording holds more
// frames than tesseract reads in three minutes, and a build that answers
// with the steps it could not read beats one that times out unexplained.
const ocrBudget = 90 * time.Second

// Service builds, keeps and hands out skills for the local CLI.
type Service struct {
	Book *Book
	// Reviewed returns a recording a skill may be built from, or
	// REVIEW_REQUIRED (recorder.Recorder.Reviewed).
	Reviewed func(ctx context.Context, recID string) (*events.Recording, error)
	// Fetch returns a recording whatever its review state, for drafts.
	Fetch func(ctx context.Context, recID string) (*events.Recording, error)
	// Answers and Confirm read and record the person's answers on a
	// recording (recorder.Recorder).
	Answers func(ctx context.Context, recID string) (map[string]string, error)
	Confirm func(ctx context.Context, recID string, answers map[string]string) error
	// Enrich, if set, adds what local extraction reads to a recording's
	// steps before they are aligned (OCR labels for unresolved steps). It
	// returns how many steps it left unread when ctx ended.
	Enrich func(ctx context.Context, rec *events.Recording) (unread int)
	// Lost, if set, says how many steps a recording lost when it was made
	// (captured, never stored): a skill is built from such a recording only
	// after the person answers its question yes.
	Lost  func(ctx context.Context, recID string) (uint64, error)
	Audit Auditor
	Log   *slog.Logger
	// FiledByHand, if set, is told after a skill is saved which rows its
	// recordings filed by hand, so that replay never files them again.
	FiledByHand func(ctx context.Context, skillID string, skill *skills.Skill, rows []learn.Demonstration) error
}

// ServiceName is the skill service's name in `nats micro ls`.
const ServiceName = "reprise-skillbook"

// Serve answers the skill subjects on nc until the connection closes.
func (s *Service) Serve(nc *nats.Conn) error {
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	ep := func(name, subject string, h func(context.Context, []byte) ([]byte, error)) ops.Endpoint {
		return ops.Endpoint{Name: name, Subject: subject, Timeout: timeout, Handle: h}
	}
	eps := []ops.Endpoint{ep("build", events.LocalSkillBuild, s.build), ep("get", events.LocalSkillGet, s.get), ep("list", events.LocalSkillList, s.list),
		ep("pending", events.LocalSkillPending, s.pending)}
	if s.Fetch != nil {
		eps = append(eps, ep("draft", events.LocalSkillDraft, s.draft))
	}
	if s.Confirm != nil {
		eps = append(eps, ep("confirm", events.LocalSkillConfirm, s.confirm))
	}
	_, err := ops.ServeLocal(nc, ops.LocalService{
		Name: ServiceName, Description: "builds, drafts and hands out skills for the local CLI",
		Endpoints: eps, Logger: s.Log,
	})
	return err
}

// Build is the build op, callable without NATS: from reviewed recordings
// only, saved when every parameter is confirmed.
func (s *Service) Build(ctx context.Context, req api.SkillBuildRequest) api.SkillBuildReply {
	draft, recs, oerr := s.generalize(ctx, req, s.Reviewed)
	if oerr != nil {
		return api.SkillBuildReply{Error: oerr}
	}
	reply, oerr := replyOf(draft)
	if oerr != nil {
		return api.SkillBuildReply{Error: oerr}
	}
	if !draft.Ready() {
		return reply
	}
	skill, err := draft.Final()
	if err != nil {
		return api.SkillBuildReply{Error: ops.Errorf(ops.CodeInternal, "%v", err)}
	}
	if reply.SkillID, err = ID(skill.Name); err != nil {
		return api.SkillBuildReply{Error: ops.Errorf(ops.CodeInvalidRequest, "%v", err)}
	}
	doc, err := skills.Marshal(skill)
	if err != nil {
		return api.SkillBuildReply{Error: ops.Errorf(ops.CodeInternal, "write skill: %v", err)}
	}
	if reply.Revision, err = s.Book.Save(ctx, reply.SkillID, doc); err != nil {
		return api.SkillBuildReply{Error: ops.Errorf(ops.CodeInternal, "%v", err)}
	}
	reply.Saved, reply.YAML = true, string(doc)
	if s.FiledByHand != nil && len(draft.Demonstrated) > 0 {
		if err := s.FiledByHand(ctx, reply.SkillID, skill, draft.Demonstrated); err != nil {
			// The skill is saved; the rows filed by hand are not marked,
			// and a replay of a CSV holding them would file them again.
			return api.SkillBuildReply{Error: ops.Errorf(ops.CodeInternal, "the skill is saved, but the rows its recordings filed were not marked as filed: build again before replaying (%v)", err)}
		}
	}
	if s.Audit != nil {
		// Content-free: which skill and version, from how many recordings.
		fields := map[string]string{"skill_id": reply.SkillID, "revision": strconv.FormatUint(reply.Revision, 10),
			"count": strconv.Itoa(len(recs)), "step_count": strconv.Itoa(len(skill.Steps))}
		if err := s.Audit.Append(ctx, "skill.built", fields); err != nil {
			s.Log.Error("audit entry not written", "kind", "skill.built", "err", err)
		}
	}
	s.Log.Info("skill built", "skill_id", reply.SkillID, "revision", reply.Revision, "recordings", len(recs))
	return reply
}

// Draft generalizes recordings without saving and without the review gate:
// the draft and the questions it raises.
func (s *Service) Draft(ctx context.Context, req api.SkillBuildRequest) api.SkillBuildReply {
	if req.Name == "" {
		req.Name = "draft"
	}
	draft, _, oerr := s.generalize(ctx, req, s.Fetch)
	if oerr != nil {
		return api.SkillBuildReply{Error: oerr}
	}
	reply, oerr := replyOf(draft)
	if oerr != nil {
		return api.SkillBuildReply{Error: oerr}
	}
	return reply
}

// generalize reads the recordings through get and generalizes them, with
// the answers recorded on them under the request's own.
func (s *Service) generalize(ctx context.Context, req api.SkillBuildRequest, get func(context.Context, string) (*events.Recording, error)) (*learn.Draft, []events.Recording, *ops.Error) {
	if len(req.Recordings) == 0 {
		return nil, nil, ops.Errorf(ops.CodeInvalidRequest, "name at least one recording to build the skill from (two rows of the same task confirm its parameters)")
	}
	recs := make([]events.Recording, 0, len(req.Recordings))
	recorded := map[string]string{}
	ocrCtx, cancel := context.WithTimeout(ctx, ocrBudget)
	defer cancel()
	unread := 0
	for _, id := range req.Recordings {
		rec, err := get(ctx, id)
		if err != nil {
			return nil, nil, asOpsError(err)
		}
		if s.Enrich != nil {
			unread += s.Enrich(ocrCtx, rec)
		}
		recs = append(recs, *rec)
		if s.Answers != nil {
			a, err := s.Answers(ctx, id)
			if err != nil {
				return nil, nil, asOpsError(err)
			}
			maps.Copy(recorded, a)
		}
	}
	opts := learn.Options{Name: req.Name, Header: req.Header, SampleRows: req.SampleRows}
	if len(recorded) > 0 {
		// Answers recorded on one recording may name parameters a draft of
		// several does not have: keep those it has.
		bare, err := learn.Generalize(recs, opts)
		if err != nil {
			return nil, nil, ops.Errorf(ops.CodeInvalidRequest, "%v", err)
		}
		known := map[string]bool{}
		for _, q := range bare.Questions {
			known[q.Parameter] = true
		}
		for _, p := range bare.Skill.Parameters {
			known[p.Name] = true
		}
		opts.Confirm = map[string]string{}
		for k, v := range recorded {
			// An answer about a parameter this draft lacks would be refused;
			// one about a column, a field or a step's success applies where
			// the draft has it, and raises its question otherwise.
			name, _, _ := strings.Cut(k, "/")
			if known[name] || strings.HasPrefix(k, "column:") && slices.Contains(opts.Header, strings.TrimPrefix(k, "column:")) ||
				strings.HasPrefix(k, "field:") || strings.HasPrefix(k, "success:") {
				opts.Confirm[k] = v
			}
		}
	}
	incomplete := map[string]string{} // answers about incomplete recordings, which the draft does not know
	if len(req.Confirm) > 0 {
		if opts.Confirm == nil {
			opts.Confirm = map[string]string{}
		}
		for k, v := range req.Confirm {
			if strings.HasPrefix(k, incompletePrefix) {
				incomplete[k] = v
			} else {
				opts.Confirm[k] = v
			}
		}
	}
	draft, err := learn.Generalize(recs, opts)
	if err != nil {
		return nil, nil, ops.Errorf(ops.CodeInvalidRequest, "%v", err)
	}
	if oerr := s.askIncomplete(ctx, req.Recordings, incomplete, draft); oerr != nil {
		return nil, nil, oerr
	}
	if unread > 0 {
		draft.Notes = append(draft.Notes, fmt.Sprintf("OCR stopped after %s: %d step(s) no channel resolved were not read, so they stay unnamed and align by their place in the recording", ocrBudget, unread))
	}
	return draft, recs, nil
}

// replyOf is a draft's reply: its questions, notes and YAML. A draft too big
// to be kept as a skill is refused here, before anyone answers its questions.
func replyOf(draft *learn.Draft) (api.SkillBuildReply, *ops.Error) {
	doc, err := skills.MarshalWithin(draft.Skill, MaxSkillSize)
	if tooBig, ok := errors.AsType[*skills.TooBigError](err); ok {
		return api.SkillBuildReply{}, ops.Errorf(ops.CodeSkillTooBig, "the skill would be %d steps, and %s already take more than the %d KB a skill can be: a skill does one row of a task. Record one row, or remove the repeats from the recordings",
			len(draft.Skill.Steps), tooBig.Part, MaxSkillSize>>10)
	}
	if err != nil {
		return api.SkillBuildReply{}, ops.Errorf(ops.CodeInternal, "write skill: %v", err)
	}
	reply := api.SkillBuildReply{Notes: draft.Notes, YAML: string(doc)}
	for _, q := range draft.Questions {
		reply.Questions = append(reply.Questions, ops.Question{Kind: string(q.Kind), Parameter: q.Parameter, Label: q.Label, Step: q.Step, Columns: q.Columns, Text: q.Text})
	}
	return reply, nil
}

// built is an api.SkillBuildReply on the wire: its Error as the refusal envelope.
func built(r api.SkillBuildReply) ([]byte, error) {
	if r.Error != nil {
		return nil, r.Error
	}
	return json.Marshal(r)
}

func (s *Service) draft(ctx context.Context, data []byte) ([]byte, error) {
	var req api.SkillBuildRequest
	if err := ops.DecodePayload("skill draft", data, &req); err != nil {
		return nil, err
	}
	return built(s.Draft(ctx, req))
}

func (s *Service) confirm(ctx context.Context, data []byte) ([]byte, error) {
	var req api.SkillConfirmRequest
	if err := ops.DecodePayload("skill confirm", data, &req); err != nil {
		return nil, err
	}
	if err := s.Confirm(ctx, req.RecordingID, req.Answers); err != nil {
		return nil, asOpsError(err)
	}
	return json.Marshal(api.SkillConfirmReply{})
}

func (s *Service) build(ctx context.Context, data []byte) ([]byte, error) {
	var req api.SkillBuildRequest
	if err := ops.DecodePayload("skill build", data, &req); err != nil {
		return nil, err
	}
	return built(s.Build(ctx, req))
}

func (s *Service) get(ctx context.Context, data []byte) ([]byte, error) {
	var req api.SkillGetRequest
	if err := ops.DecodePayload("skill get", data, &req); err != nil {
		return nil, err
	}
	e, err := s.Book.Get(ctx, req.SkillID, req.Revision)
	if errors.Is(err, ErrNotFound) {
		return nil, ops.Errorf(ops.CodeSkillNotFound, "no skill %q (revision %d) here", short(req.SkillID), req.Revision)
	}
	if err != nil {
		return nil, ops.Errorf(ops.CodeInternal, "%v", err)
	}
	return json.Marshal(api.SkillGetReply{SkillVersion: e.SkillVersion, YAML: string(e.Doc)})
}

func (s *Service) list(ctx context.Context, data []byte) ([]byte, error) {
	if err := ops.DecodeLocal("skill list", data, &struct{}{}); err != nil {
		return nil, err
	}
	entries, err := s.Book.List(ctx)
	if err != nil {
		return nil, ops.Errorf(ops.CodeInternal, "%v", err)
	}
	out := api.SkillListReply{Skills: []api.SkillListing{}}
	for _, e := range entries {
		l := api.SkillListing{SkillVersion: e.SkillVersion}
		if sk, err := skills.Parse(e.Doc); err == nil {
			l.Name, l.Parameters, l.Steps = sk.Name, len(sk.Parameters), len(sk.Steps)
		}
		out.Skills = append(out.Skills, l)
	}
	return json.Marshal(out)
}

func asOpsError(err error) *ops.Error {
	var oe *ops.Error
	if errors.As(err, &oe) {
		return oe
	}
	return ops.Errorf(ops.CodeInternal, "%v", err)
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
