package session

import (
	"context"
	"fmt"
	"os"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/skillbook"
	"github.com/reprise-dev/reprise/skills"
)

// Kept is the daemon's skill book, as a run reads the skill it runs.
type Kept interface {
	// Skill is the skill ref names (its id or name) at revision, 0 for
	// the newest.
	Skill(ctx context.Context, ref string, revision uint64) (api.SkillGetReply, error)
}

// Skill is the skill a run runs, and where it came from.
type Skill struct {
	// ID is the skill's id in the skill book, or the one its name gives.
	ID string
	// Doc is its document, as read; Skill, parsed.
	Doc   []byte
	Skill *skills.Skill
	// File is the skill's file when it was given as one, "" for a kept
	// skill: a healed revision is written beside it.
	File string
}

// LoadSkill reads the skill ref names: the skill file at ref when there
// is one, else the newest revision of the skill kept under ref.
func LoadSkill(ctx context.Context, kept Kept, ref string) (Skill, error) {
	if st, err := os.Stat(ref); err == nil && !st.IsDir() {
		s, doc, err := skills.ReadFile(ref)
		if err != nil {
			return Skill{}, err
		}
		id, err := skillbook.ID(s.Name)
		return Skill{ID: id, Doc: doc, Skill: s, File: ref}, err
	}
	reply, err := kept.Skill(ctx, ref, 0)
	if err != nil {
		return Skill{}, err
	}
	s, err := skills.Parse([]byte(reply.YAML))
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: %w", reply.ID, err)
	}
	return Skill{ID: reply.ID, Doc: []byte(reply.YAML), Skill: s}, nil
}
