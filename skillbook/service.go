package skillbook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/skills"
)

// Subjects the local CLI asks on; the platform's account cannot reach them.
const (
	BuildSubject = embedded.LocalSubjectPrefix + ".skill.build"
	GetSubject   = embedded.LocalSubjectPrefix + ".skill.get"
	ListSubject  = embedded.LocalSubjectPrefix + ".skill.list"
)

// BuildRequest asks for a skill from reviewed recordings.
type BuildRequest struct {
	Name       string            `json:"name"`
	Recordings []string          `json:"recordings"`
	Header     []string          `json:"header,omitempty"`
	SampleRows [][]string        `json:"sample_rows,omitempty"`
	Confirm    map[string]string `json:"confirm,omitempty"`
}

// Question is a skills.Question on the wire.
type Question struct {
	Kind      string   `json:"kind"`
	Parameter string   `json:"parameter"`
	Label     string   `json:"label,omitempty"`
	Step      int      `json:"step"`
	Columns   []string `json:"columns,omitempty"`
	Text      string   `json:"text"`
}

// BuildReply is the draft, and whether it saved: a skill with an open
// question does not.
type BuildReply struct {
	SkillID   string     `json:"skill_id,omitempty"`
	Revision  uint64     `json:"revision,omitempty"`
	Saved     bool       `json:"saved"`
	Questions []Question `json:"questions,omitempty"`
	Notes     []string   `json:"notes,omitempty"`
	YAML      string     `json:"yaml,omitempty"`
	Error     *ops.Error `json:"error,omitempty"`
}

// GetRequest names a skill, and a version of it (0: the newest).
type GetRequest struct {
	SkillID  string `json:"skill_id"`
	Revision uint64 `json:"revision,omitempty"`
}

// GetReply is one version of a skill document.
type GetReply struct {
	Entry
	YAML  string     `json:"yaml,omitempty"`
	Error *ops.Error `json:"error,omitempty"`
}

// ListReply is the newest version of every skill.
type ListReply struct {
	Skills []Listing  `json:"skills"`
	Error  *ops.Error `json:"error,omitempty"`
}

// Listing is one skill in ListReply.
type Listing struct {
	Entry
	Name       string `json:"name"`
	Parameters int    `json:"parameters"`
	Steps      int    `json:"steps"`
}

// Auditor records content-free audit entries.
type Auditor interface {
	Append(ctx context.Context, kind string, fields map[string]string) error
}

// timeout bounds one request: a build may OCR a recording's frames.
const timeout = 3 * time.Minute

// Service builds, keeps and hands out skills for the local CLI.
type Service struct {
	Book *Book
	// Reviewed returns a recording a skill may be built from, or
	// REVIEW_REQUIRED (recorder.Recorder.Reviewed).
	Reviewed func(ctx context.Context, recID string) (*events.Recording, error)
	// Enrich, if set, adds what local extraction reads to a recording's
	// steps before they are aligned (OCR labels for unresolved steps).
	Enrich func(ctx context.Context, rec *events.Recording)
	Audit  Auditor
	Log    *slog.Logger
}

// Serve answers the skill subjects on nc until the subscriptions end.
func (s *Service) Serve(nc *nats.Conn) error {
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	handlers := map[string]func(context.Context, []byte) any{
		BuildSubject: s.build, GetSubject: s.get, ListSubject: s.list,
	}
	for subj, h := range handlers {
		if _, err := nc.Subscribe(subj, func(m *nats.Msg) {
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			b, _ := json.Marshal(h(ctx, m.Data))
			_ = m.Respond(b)
		}); err != nil {
			return fmt.Errorf("serve %s: %w", subj, err)
		}
	}
	return nil
}

// Build is the build op, callable without NATS.
func (s *Service) Build(ctx context.Context, req BuildRequest) BuildReply {
	recs := make([]events.Recording, 0, len(req.Recordings))
	if len(req.Recordings) == 0 {
		return BuildReply{Error: ops.Errorf(ops.CodeInvalidRequest, "name at least one recording to build the skill from (two rows of the same task confirm its parameters)")}
	}
	for _, id := range req.Recordings {
		rec, err := s.Reviewed(ctx, id)
		if err != nil {
			return BuildReply{Error: asOpsError(err)}
		}
		if s.Enrich != nil {
			s.Enrich(ctx, rec)
		}
		recs = append(recs, *rec)
	}
	draft, err := skills.Generalize(recs, skills.Options{Name: req.Name, Header: req.Header, SampleRows: req.SampleRows, Confirm: req.Confirm})
	if err != nil {
		return BuildReply{Error: ops.Errorf(ops.CodeInvalidRequest, "%v", err)}
	}
	reply := BuildReply{Notes: draft.Notes}
	for _, q := range draft.Questions {
		reply.Questions = append(reply.Questions, Question{Kind: string(q.Kind), Parameter: q.Parameter, Label: q.Label, Step: q.Step, Columns: q.Columns, Text: q.Text})
	}
	if doc, err := skills.Marshal(draft.Skill); err == nil {
		reply.YAML = string(doc)
	}
	if !draft.Ready() {
		return reply
	}
	skill, err := draft.Final()
	if err != nil {
		return BuildReply{Error: ops.Errorf(ops.CodeInternal, "%v", err)}
	}
	if reply.SkillID, err = ID(skill.Name); err != nil {
		return BuildReply{Error: ops.Errorf(ops.CodeInvalidRequest, "%v", err)}
	}
	doc, err := skills.Marshal(skill)
	if err != nil {
		return BuildReply{Error: ops.Errorf(ops.CodeInternal, "write skill: %v", err)}
	}
	if reply.Revision, err = s.Book.Save(ctx, reply.SkillID, doc); err != nil {
		return BuildReply{Error: ops.Errorf(ops.CodeInternal, "%v", err)}
	}
	reply.Saved, reply.YAML = true, string(doc)
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

func (s *Service) build(ctx context.Context, data []byte) any {
	var req BuildRequest
	if err := ops.DecodePayload("skill build", data, &req); err != nil {
		return BuildReply{Error: err}
	}
	return s.Build(ctx, req)
}

func (s *Service) get(ctx context.Context, data []byte) any {
	var req GetRequest
	if err := ops.DecodePayload("skill get", data, &req); err != nil {
		return GetReply{Error: err}
	}
	e, err := s.Book.Get(ctx, req.SkillID, req.Revision)
	if errors.Is(err, ErrNotFound) {
		return GetReply{Error: ops.Errorf(ops.CodeInvalidRequest, "no skill %q (revision %d) here; `reprise skill list` shows those kept", short(req.SkillID), req.Revision)}
	}
	if err != nil {
		return GetReply{Error: ops.Errorf(ops.CodeInternal, "%v", err)}
	}
	return GetReply{Entry: e, YAML: string(e.Doc)}
}

func (s *Service) list(ctx context.Context, _ []byte) any {
	entries, err := s.Book.List(ctx)
	if err != nil {
		return ListReply{Error: ops.Errorf(ops.CodeInternal, "%v", err)}
	}
	out := ListReply{Skills: []Listing{}}
	for _, e := range entries {
		l := Listing{Entry: e}
		if sk, err := skills.Parse(e.Doc); err == nil {
			l.Name, l.Parameters, l.Steps = sk.Name, len(sk.Parameters), len(sk.Steps)
		}
		out.Skills = append(out.Skills, l)
	}
	return out
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
