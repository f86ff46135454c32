package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/heal"
	"github.com/reprise-dev/reprise/replay/session"
	"github.com/reprise-dev/reprise/store"
)

// openCacheIn opens skill id's replay cache in the data dir home: a file
// per skill in its cache folder, signed with a key from the key store the
// daemon uses (the keychain, or the data dir's key files), its item named
// after the data dir's machine id.
func openCacheIn(home, id string, log *slog.Logger) (*heal.Cache, error) {
	machine, err := daemon.LoadOrCreateMachineID(home)
	if err != nil {
		return nil, err
	}
	ks, _ := store.OpenKeyStore(filepath.Join(home, "keys"), daemon.KeyringService(home), log)
	key, err := heal.CacheKey(ks, machine)
	if err != nil {
		return nil, err
	}
	c, err := heal.OpenCache(filepath.Join(home, "cache"), id, key)
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

// book is the daemon's skill book, where a healed revision is proposed.
type book struct{ c *client.Client }

func (b book) Current(ctx context.Context, id string) (string, uint64, error) {
	r, err := b.c.Skill(ctx, id, 0)
	return r.YAML, r.Revision, err
}

func (b book) Propose(ctx context.Context, id string, base uint64, doc string) error {
	_, err := b.c.Pending(ctx, api.SkillPendingRequest{SkillID: id, Op: api.SkillPendingPropose, Base: base, YAML: doc})
	return err
}

func (b book) Accept(ctx context.Context, id string) (uint64, error) {
	r, err := b.c.Pending(ctx, api.SkillPendingRequest{SkillID: id, Op: api.SkillPendingAccept})
	return r.Revision, err
}

// proposeHealed proposes what a model changed for the run's rows as the
// skill's next revision (saved at once with accept), and says where.
func proposeHealed(ctx context.Context, s *session.Session, c *client.Client, out io.Writer, res *replay.Result, skillRef string, accept bool) error {
	file := ""
	if st, err := os.Stat(skillRef); err == nil && !st.IsDir() {
		file = skillRef
	}
	p, err := s.Propose(ctx, res, file, book{c}, accept)
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
