// Package skillbook keeps skills: the SKILLS bucket, where every saved
// version of a skill stays in its history, and the daemon's local service
// that builds a skill from reviewed recordings.
package skillbook

import (
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

// Save stores doc as the newest version of skill id; the versions before it
// stay in the history.
func (b *Book) Save(ctx context.Context, id string, doc []byte) (uint64, error) {
	if !idPattern.MatchString(id) {
		return 0, fmt.Errorf("skill id %q: want lower-case letters, digits, '-' and '_'", id)
	}
	if len(doc) > MaxSkillSize {
		return 0, fmt.Errorf("save skill %s: %d bytes, over the %d a skill can be", id, len(doc), MaxSkillSize)
	}
	sealed, err := b.seal.seal(id, doc)
	if err != nil {
		return 0, err
	}
	rev, err := b.kv.Put(ctx, id, sealed)
	if err != nil {
		return 0, fmt.Errorf("save skill %s: %w", id, err)
	}
	return rev, nil
}

// Get returns skill id at revision, or its newest version when revision is 0.
func (b *Book) Get(ctx context.Context, id string, revision uint64) (Entry, error) {
	if !idPattern.MatchString(id) {
		return Entry{}, fmt.Errorf("skill %q: %w", id, ErrNotFound)
	}
	var e jetstream.KeyValueEntry
	var err error
	if revision == 0 {
		e, err = b.kv.Get(ctx, id)
	} else {
		e, err = b.kv.GetRevision(ctx, id, revision)
	}
	if errors.Is(err, jetstream.ErrKeyNotFound) || (err == nil && e.Key() != id) {
		return Entry{}, fmt.Errorf("skill %s revision %d: %w", id, revision, ErrNotFound)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("read skill %s: %w", id, err)
	}
	return b.entry(e)
}

// History returns every kept version of skill id, oldest first.
func (b *Book) History(ctx context.Context, id string) ([]Entry, error) {
	if !idPattern.MatchString(id) {
		return nil, fmt.Errorf("skill %q: %w", id, ErrNotFound)
	}
	h, err := b.kv.History(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("skill %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("history of skill %s: %w", id, err)
	}
	out := make([]Entry, 0, len(h))
	for _, e := range h {
		if e.Operation() == jetstream.KeyValuePut {
			en, err := b.entry(e)
			if err != nil {
				return nil, err
			}
			out = append(out, en)
		}
	}
	return out, nil
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

func (b *Book) entry(e jetstream.KeyValueEntry) (Entry, error) {
	doc, err := b.seal.open(e.Key(), e.Value())
	if err != nil {
		return Entry{}, err
	}
	return Entry{SkillVersion: api.SkillVersion{ID: e.Key(), Revision: e.Revision(), Saved: e.Created()}, Doc: doc}, nil
}
