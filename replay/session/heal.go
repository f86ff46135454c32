package session

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/reprise-dev/reprise/model"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/skills"
)

// Heal is where a run's healing comes from; each is called only when a
// step of the skill lets a model decide (ai: on_miss, every_run) or a
// pinned choice is kept here.
type Heal struct {
	// Model is the model the steps use; an error (none configured) refuses
	// the run before any row, naming it.
	Model func() (model.Model, error)
	// Cache opens skill's replay cache on this host.
	Cache func(skillID string) (*heal.Cache, error)
}

// healing is a run's model, for the steps whose ai lets one decide: each
// executor is wrapped, and what went through is proposed as a revision.
type healing struct {
	skill   *skills.Skill
	opts    heal.Options
	wrapped []*heal.Executor
}

// startHealing returns the run's healing, or nil when no step of the skill
// lets a model decide. A skill that asks for a model when none is
// configured fails here, naming the step, before any row runs.
func startHealing(skillID string, skill *skills.Skill, h *Heal, log *slog.Logger) (*healing, error) {
	if len(skill.ModelSteps()) == 0 && !skill.PinnedHere() {
		return nil, nil
	}
	var m model.Model
	if len(skill.ModelSteps()) > 0 {
		var err error
		if m, err = h.Model(); err != nil {
			return nil, err
		}
		if err := heal.Validate(skill, m); err != nil {
			return nil, fmt.Errorf("skill %s: %w", skillID, err)
		}
	}
	cache, err := h.Cache(skillID)
	if err != nil {
		return nil, err
	}
	return &healing{skill: skill, opts: heal.Options{Skill: skill, Model: m, Cache: cache, Logger: log}}, nil
}

// wrap wraps an executor: a browser tab (its page's elements), or the
// desktop executor (the step's window through the accessibility tree).
func (h *healing) wrap(x replay.Executor) (replay.Executor, error) {
	o := h.opts
	switch x := x.(type) {
	case *browser.Executor:
		o.WatchesClicks = true
		o.Look = func(ctx context.Context, _ replay.Step) (heal.Screen, error) {
			url, p, err := x.Look(ctx)
			facts := make([]heal.Fact, len(p.Tree))
			for i := range facts {
				facts[i] = heal.Fact{Secure: p.Secure[i], Submit: p.Submit[i]}
			}
			return heal.Screen{URL: url, Title: p.Title, Tree: p.Tree, Facts: facts}, err
		}
	case *desktop.Executor:
		o.Look = func(ctx context.Context, st replay.Step) (heal.Screen, error) {
			title, tree, err := x.Look(ctx, st)
			return heal.Screen{Title: title, Tree: tree}, err
		}
	default:
		return nil, fmt.Errorf("ai: on_miss and every_run: executor %T cannot show a model its elements", x)
	}
	w := heal.New(x, o)
	h.wrapped = append(h.wrapped, w)
	return w, nil
}

// Book is where a kept skill's healed revision is proposed: the daemon's
// skill book.
type Book interface {
	// Current is the skill's newest document and its revision.
	Current(ctx context.Context, skillID string) (doc string, revision uint64, err error)
	// Propose keeps doc as the skill's proposed revision, made from base.
	Propose(ctx context.Context, skillID string, base uint64, doc string) error
	// Accept saves the proposed revision as the newest.
	Accept(ctx context.Context, skillID string) (revision uint64, err error)
}

// Proposal is what became of a run's healing.
type Proposal struct {
	// Rows are the committed rows a model healed; 0 when none was.
	Rows int
	// File is where a skill file's healed revision was written.
	File string
	// Changed: the kept skill changed during the run, so nothing was
	// proposed.
	Changed bool
	// Revision is the revision the proposal was saved as, when accepted.
	Revision uint64
}

// Propose writes what a model changed for res's committed rows into a
// revision of the skill: for a skill file (file), beside it (or over it,
// with accept); for a kept skill, proposed in book (and saved, with
// accept).
func (s *Session) Propose(ctx context.Context, res *replay.Result, file string, book Book, accept bool) (Proposal, error) {
	h := s.healing
	var p Proposal
	if h == nil || res == nil {
		return p, nil
	}
	var changes []heal.Change
	for _, r := range res.Rows {
		if r.Outcome != replay.OutcomeCommitted || len(r.Healed) == 0 {
			continue
		}
		p.Rows++
		for _, w := range h.wrapped {
			changes = append(changes, w.Healed(r.N)...)
		}
	}
	if len(changes) == 0 {
		return Proposal{}, nil
	}
	revised, err := heal.Revise(h.skill, changes)
	if err != nil {
		return p, err
	}
	doc, err := skills.Marshal(revised)
	if err != nil {
		return p, err
	}
	if file != "" {
		p.File = file + ".healed.yaml"
		if accept {
			p.File = file
		}
		if err := os.WriteFile(p.File, doc, 0o600); err != nil {
			return p, fmt.Errorf("write the healed revision: %w", err)
		}
		return p, nil
	}
	cur, base, err := book.Current(ctx, s.cfg.SkillID)
	if err != nil {
		return p, err
	}
	if cur != string(s.cfg.Doc) {
		p.Changed = true
		return p, nil
	}
	if err := book.Propose(ctx, s.cfg.SkillID, base, string(doc)); err != nil {
		return p, fmt.Errorf("propose the healed revision: %w", err)
	}
	if accept {
		if p.Revision, err = book.Accept(ctx, s.cfg.SkillID); err != nil {
			return p, fmt.Errorf("accept the healed revision: %w", err)
		}
	}
	return p, nil
}
