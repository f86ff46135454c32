package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/replay/session"
)

// openCache opens skill id's replay cache in the data dir home, worded
// for a damaged one.
func openCache(home, id string, log *slog.Logger) (*heal.Cache, error) {
	c, err := daemon.OpenReplayCache(home, id, log)
	return c, explainCache(err)
}

// explainCache says how to clear a damaged replay cache.
func explainCache(err error) error {
	var damaged *heal.DamagedError
	if errors.As(err, &damaged) {
		return fmt.Errorf("the replay cache %s is damaged (%v): remove it with reprise cache clear %s", damaged.Path, damaged.Err, damaged.Skill)
	}
	return err
}

// proposeHealed proposes what a model changed for the run's rows as the
// skill's next revision (saved at once with accept), and says where; file
// is the skill's file, when it was given as one.
func proposeHealed(ctx context.Context, s *session.Session, c *client.Client, out io.Writer, res *replay.Result, file string, accept bool) error {
	p, err := s.Propose(ctx, res, file, c.Book(), accept)
	id := s.Plan().SkillID
	switch {
	case err != nil || p.Rows == 0:
		return err
	case p.File != "":
		fmt.Fprintf(out, "%d row(s) healed by the model; the healed skill is %s\n", p.Rows, p.File)
	case p.Changed:
		fmt.Fprintf(out, "%d row(s) healed by the model; skill %s changed during the run, so no revision is proposed\n", p.Rows, id)
	case accept:
		fmt.Fprintf(out, "%d row(s) healed by the model: saved as revision %d of skill %s (--accept-healed)\n", p.Rows, p.Revision, id)
	default:
		fmt.Fprintf(out, "%d row(s) healed by the model: a revision of skill %s is proposed; see it with `reprise skill show %s --pending`, accept it with `reprise skill accept %s`\n",
			p.Rows, id, id, id)
	}
	return nil
}
