package skillbook

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
)

// pendingSuffix keys a skill's proposed revision: a key no skill id can
// be, since an id has no dot.
const pendingSuffix = ".pending"

// Pending is a revision proposed for a skill (one a model healed), not
// yet accepted: replay keeps running the skill as confirmed.
type Pending struct {
	Entry
	// Base is the revision of the skill it was made from.
	Base uint64
}

// Propose keeps doc as skill id's proposed revision, made from revision
// base; a newer proposal replaces it.
func (b *Book) Propose(ctx context.Context, id string, base uint64, doc []byte) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("skill %q: %w", id, ErrNotFound)
	}
	if len(doc) > MaxSkillSize {
		return fmt.Errorf("propose a revision of skill %s: %d bytes, over the %d a skill can be", id, len(doc), MaxSkillSize)
	}
	value, err := b.seal.seal(id+pendingSuffix, 0, append([]byte(strconv.FormatUint(base, 10)+"\n"), doc...))
	if err != nil {
		return err
	}
	if _, err := b.kv.Put(ctx, id+pendingSuffix, value); err != nil {
		return fmt.Errorf("propose a revision of skill %s: %w", id, err)
	}
	return nil
}

// ErrNoPending is returned for a skill with no proposed revision.
var ErrNoPending = errors.New("no revision is proposed")

// Pending returns skill id's proposed revision.
func (b *Book) Pending(ctx context.Context, id string) (Pending, error) {
	if !idPattern.MatchString(id) {
		return Pending{}, fmt.Errorf("skill %q: %w", id, ErrNotFound)
	}
	e, err := b.kv.Get(ctx, id+pendingSuffix)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return Pending{}, fmt.Errorf("skill %s: %w", id, ErrNoPending)
	}
	if err != nil {
		return Pending{}, fmt.Errorf("read the proposed revision of skill %s: %w", id, err)
	}
	_, value, err := b.seal.open(e.Key(), e.Value())
	if err != nil {
		return Pending{}, err
	}
	head, doc, ok := strings.Cut(string(value), "\n")
	base, perr := strconv.ParseUint(head, 10, 64)
	if !ok || perr != nil {
		return Pending{}, fmt.Errorf("the proposed revision of skill %s is damaged", id)
	}
	// Its revision is the one it would be saved as, were it accepted now.
	return Pending{Entry: Entry{SkillVersion: api.SkillVersion{ID: id, Revision: base + 1, Saved: e.Created()}, Doc: []byte(doc)}, Base: base}, nil
}

// Accept saves skill id's proposed revision as its newest version and
// drops the proposal. It refuses one made from an older revision than
// the newest: the skill changed since, and the proposal would undo that.
func (b *Book) Accept(ctx context.Context, id string) (uint64, error) {
	p, err := b.Pending(ctx, id)
	if err != nil {
		return 0, err
	}
	cur, err := b.Get(ctx, id, 0)
	if err != nil {
		return 0, err
	}
	if cur.Revision != p.Base {
		return 0, fmt.Errorf("skill %s changed (revision %d) since the proposal was made from revision %d: replay again to propose anew", id, cur.Revision, p.Base)
	}
	rev, err := b.Save(ctx, id, p.Doc)
	if err != nil {
		return 0, err
	}
	return rev, b.Discard(ctx, id)
}

// Discard drops skill id's proposed revision, if any.
func (b *Book) Discard(ctx context.Context, id string) error {
	err := b.kv.Purge(ctx, id+pendingSuffix)
	if err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("drop the proposed revision of skill %s: %w", id, err)
	}
	return nil
}
