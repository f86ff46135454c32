// Package skillbook keeps skills: the SKILLS bucket, where every saved
// version of a skill stays in its history, and the daemon's local service
// that builds a skill from reviewed recordings.
package skillbook

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
)

// Entry is one saved version of a skill document: what the local CLI is
// told of it (api.SkillVersion), and the document.
type Entry struct {
	api.SkillVersion
	Doc []byte `json:"-"`
}

// ErrNotFound is returned for a skill, or a version of one, not in the book.
var ErrNotFound = errors.New("skill not found")

// Book is the SKILLS bucket.
type Book struct {
	kv   jetstream.KeyValue
	seal *sealer
}

// Open opens the SKILLS bucket (events.EnsureStores creates it), whose
// skills are sealed with key (store.DataKeySize bytes).
func Open(ctx context.Context, js jetstream.JetStream, key []byte) (*Book, error) {
	s, err := newSealer(key)
	if err != nil {
		return nil, err
	}
	kv, err := js.KeyValue(ctx, events.BucketSkills)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", events.BucketSkills, err)
	}
	return &Book{kv: kv, seal: s}, nil
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,79}$`)

// ID turns a skill's name into its key: lower case, words joined by '-'.
func ID(name string) (string, error) {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
	}
	id := strings.TrimRight(b.String(), "-")
	if !idPattern.MatchString(id) {
		return "", fmt.Errorf("skill name %q gives no usable id: use letters and digits, at most 80", name)
	}
	return id, nil
}

// MaxSkillSize bounds a skill's YAML: it is kept as one KV value, under
// NATS's 1 MB message limit with room for headers. A skill does one row of
// a task, a few kilobytes.
const MaxSkillSize = 1<<20 - 16<<10

// Save stores doc as the newest version of skill id and returns its
// revision: the skill's first save is 1, each later one the next number.
// The versions before it stay in the history.
func (b *Book) Save(ctx context.Context, id string, doc []byte) (uint64, error) {
	if !idPattern.MatchString(id) {
		return 0, fmt.Errorf("skill id %q: want lower-case letters, digits, '-' and '_'", id)
	}
	if len(doc) > MaxSkillSize {
		return 0, fmt.Errorf("save skill %s: %d bytes, over the %d a skill can be", id, len(doc), MaxSkillSize)
	}
	// Two saves at once (a build beside an accept) would both take the
	// same number: the write expects the key's last operation to be the
	// one read, and the loser reads again.
	for attempt := 1; ; attempt++ {
		versions, last, err := b.versions(ctx, id)
		if err != nil {
			return 0, fmt.Errorf("save skill %s: %w", id, err)
		}
		rev := uint64(1)
		if len(versions) > 0 {
			rev = versions[len(versions)-1].Revision + 1
		}
		sealed, err := b.seal.seal(id, rev, doc)
		if err != nil {
			return 0, err
		}
		_, err = b.kv.Update(ctx, id, sealed, last)
		if err == nil {
			return rev, nil
		}
		if !errors.Is(err, jetstream.ErrKeyExists) || attempt == 16 {
			return 0, fmt.Errorf("save skill %s: %w", id, err)
		}
	}
}

// Get returns skill id at revision, or its newest version when revision is 0.
func (b *Book) Get(ctx context.Context, id string, revision uint64) (Entry, error) {
	if !idPattern.MatchString(id) {
		return Entry{}, fmt.Errorf("skill %q: %w", id, ErrNotFound)
	}
	if revision == 0 {
		e, err := b.kv.Get(ctx, id)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return Entry{}, fmt.Errorf("skill %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return Entry{}, fmt.Errorf("read skill %s: %w", id, err)
		}
		rev, doc, err := b.seal.open(e.Key(), e.Value())
		if err != nil {
			return Entry{}, err
		}
		if rev != 0 {
			return Entry{SkillVersion: api.SkillVersion{ID: id, Revision: rev, Saved: e.Created()}, Doc: doc}, nil
		}
		// Saved before versions were numbered: its number is its place.
	}
	versions, _, err := b.versions(ctx, id)
	if err != nil {
		return Entry{}, err
	}
	for i := len(versions) - 1; i >= 0; i-- {
		if revision == 0 || versions[i].Revision == revision {
			return versions[i], nil
		}
	}
	return Entry{}, fmt.Errorf("skill %s revision %d: %w", id, revision, ErrNotFound)
}

// History returns every kept version of skill id, oldest first.
func (b *Book) History(ctx context.Context, id string) ([]Entry, error) {
	if !idPattern.MatchString(id) {
		return nil, fmt.Errorf("skill %q: %w", id, ErrNotFound)
	}
	versions, _, err := b.versions(ctx, id)
	if err == nil && len(versions) == 0 {
		err = fmt.Errorf("skill %s: %w", id, ErrNotFound)
	}
	return versions, err
}

// versions returns the kept versions of skill id, oldest first, and the
// stream sequence of the key's last operation (0 for a key never written),
// which a save expects to follow.
func (b *Book) versions(ctx context.Context, id string) ([]Entry, uint64, error) {
	h, err := b.kv.History(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("history of skill %s: %w", id, err)
	}
	var out []Entry
	var rev uint64
	for _, e := range h {
		if e.Operation() != jetstream.KeyValuePut {
			continue
		}
		n, doc, err := b.seal.open(e.Key(), e.Value())
		if err != nil {
			return nil, 0, err
		}
		// A version saved before versions were numbered follows the one
		// before it.
		rev = cmp.Or(n, rev+1)
		out = append(out, Entry{SkillVersion: api.SkillVersion{ID: id, Revision: rev, Saved: e.Created()}, Doc: doc})
	}
	return out, h[len(h)-1].Revision(), nil
}

// List returns the newest version of every skill, by id.
func (b *Book) List(ctx context.Context) ([]Entry, error) {
	keys, err := b.kv.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("list skills: %w", err)
	}
	var ids []string
	for k := range keys.Keys() {
		if idPattern.MatchString(k) { // not a proposal (Propose)
			ids = append(ids, k)
		}
	}
	slices.Sort(ids)
	out := make([]Entry, 0, len(ids))
	for _, id := range ids {
		e, err := b.Get(ctx, id, 0)
		if errors.Is(err, ErrNotFound) {
			continue // deleted meanwhile
		}
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}
