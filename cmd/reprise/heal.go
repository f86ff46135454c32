package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/model"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/store"
)

// healing is a run's model, for the steps whose ai lets one decide: each
// executor is wrapped, and what went through is proposed as a revision.
type healing struct {
	skillID, skillRef string
	skill             *skills.Skill
	doc               []byte
	opts              heal.Options
	wrapped           []*heal.Executor
}

// cacheDir is where the replay caches are kept, a file per skill.
func cacheDir(home string) string { return filepath.Join(home, "cache") }

// cacheKey is the key the data dir's replay caches are signed with, from
// the key store the daemon uses (the keychain, or the data dir's key
// files), its item named after the data dir's machine id.
func cacheKey(home string, log *slog.Logger) ([]byte, error) {
	id, err := daemon.LoadOrCreateMachineID(home)
	if err != nil {
		return nil, err
	}
	ks, _ := store.OpenKeyStore(filepath.Join(home, "keys"), daemon.KeyringService(home), log)
	return heal.CacheKey(ks, id)
}

// startHealing returns the run's healing, or nil when no step of the skill
// lets a model decide. A skill that asks for a model when none is
// configured fails here, naming the step, before any row runs.
func startHealing(home string, cfg daemon.Config, skillID, skillRef string, skill *skills.Skill, doc []byte, log *slog.Logger) (*healing, error) {
	if len(skill.ModelSteps()) == 0 && !skill.PinnedHere() {
		return nil, nil
	}
	var m model.Model
	if len(skill.ModelSteps()) > 0 {
		var err error
		if m, err = cfg.ReplayModel(); err != nil {
			return nil, err
		}
		if err := heal.Validate(skill, m); err != nil {
			return nil, fmt.Errorf("skill %s: %w", skillID, err)
		}
	}
	key, err := cacheKey(home, log)
	if err != nil {
		return nil, err
	}
	cache, err := heal.OpenCache(cacheDir(home), skillID, key)
	if err != nil {
		return nil, err
	}
	return &healing{skillID: skillID, skillRef: skillRef, skill: skill, doc: doc,
		opts: heal.Options{Skill: skill, Model: m, Cache: cache, Logger: log}}, nil
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

// propose writes what a model changed for the run's committed rows into a
// revision of the skill: proposed in the skill book (or, for a skill file,
// beside it), or saved at once with accept.
func (h *healing) propose(ctx context.Context, c *client.Client, out io.Writer, res *replay.Result, accept bool) error {
	var changes []heal.Change
	healed := 0
	for _, r := range res.Rows {
		if r.Outcome != replay.OutcomeCommitted || len(r.Healed) == 0 {
			continue
		}
		healed++
		for _, w := range h.wrapped {
			changes = append(changes, w.Healed(r.N)...)
		}
	}
	if len(changes) == 0 {
		return nil
	}
	revised, err := heal.Revise(h.skill, changes)
	if err != nil {
		return err
	}
	doc, err := skills.Marshal(revised)
	if err != nil {
		return err
	}
	if st, err := os.Stat(h.skillRef); err == nil && !st.IsDir() {
		path := h.skillRef + ".healed.yaml"
		if accept {
			path = h.skillRef
		}
		if err := os.WriteFile(path, doc, 0o600); err != nil {
			return fmt.Errorf("write the healed revision: %w", err)
		}
		fmt.Fprintf(out, "%d row(s) healed by the model; the healed skill is %s\n", healed, path)
		return nil
	}
	cur, err := c.Skill(ctx, h.skillID, 0)
	if err != nil {
		return err
	}
	if cur.YAML != string(h.doc) {
		fmt.Fprintf(out, "%d row(s) healed by the model; skill %s changed during the run, so no revision is proposed\n", healed, h.skillID)
		return nil
	}
	if _, err := c.Pending(ctx, api.SkillPendingRequest{SkillID: h.skillID, Op: api.SkillPendingPropose, Base: cur.Revision, YAML: string(doc)}); err != nil {
		return fmt.Errorf("propose the healed revision: %w", err)
	}
	if !accept {
		fmt.Fprintf(out, "%d row(s) healed by the model: a revision of skill %s is proposed; see it with `reprise skill show %s --pending`, accept it with `reprise skill accept %s`\n",
			healed, h.skillID, h.skillID, h.skillID)
		return nil
	}
	reply, err := c.Pending(ctx, api.SkillPendingRequest{SkillID: h.skillID, Op: api.SkillPendingAccept})
	if err != nil {
		return fmt.Errorf("accept the healed revision: %w", err)
	}
	fmt.Fprintf(out, "%d row(s) healed by the model: saved as revision %d of skill %s (--accept-healed)\n", healed, reply.Revision, h.skillID)
	return nil
}
