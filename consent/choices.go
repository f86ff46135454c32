package consent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
)

// Choices keeps remembered answers per kind of recording, until the person
// forgets them. Implementations must be safe for concurrent use.
type Choices interface {
	// Get returns the answer remembered for kind; ok is false when there
	// is none.
	Get(ctx context.Context, kind string) (c api.ConsentChoice, ok bool, err error)
	// Set remembers approved for kind, replacing any earlier answer.
	Set(ctx context.Context, kind string, approved bool) error
	// Forget drops kind's answer; forgetting one that is not kept is not an
	// error.
	Forget(ctx context.Context, kind string) error
	// ForgetAll drops every answer and says how many there were.
	ForgetAll(ctx context.Context) (int, error)
	// List returns every remembered answer, by kind.
	List(ctx context.Context) ([]api.ConsentChoice, error)
}

// KVChoices keeps Choices in the CONSENT_CHOICES bucket.
type KVChoices struct {
	kv  jetstream.KeyValue
	now func() time.Time
}

var _ Choices = (*KVChoices)(nil)

// OpenChoices creates the CONSENT_CHOICES bucket, or brings it up to date,
// and returns the Choices kept there.
func OpenChoices(ctx context.Context, js jetstream.JetStream) (*KVChoices, error) {
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket:      events.BucketConsentChoices,
		Description: "remembered consent answers, one per kind of recording; revocable with `reprise consent forget`",
		History:     1,
		Storage:     jetstream.FileStorage,
	})
	if err != nil {
		return nil, fmt.Errorf("ensure bucket %s: %w", events.BucketConsentChoices, err)
	}
	return &KVChoices{kv: kv, now: time.Now}, nil
}

// Get implements Choices.
func (s *KVChoices) Get(ctx context.Context, kind string) (api.ConsentChoice, bool, error) {
	if _, err := ParseKind(kind); err != nil {
		return api.ConsentChoice{}, false, err
	}
	return s.get(ctx, kind)
}

func (s *KVChoices) get(ctx context.Context, kind string) (api.ConsentChoice, bool, error) {
	e, err := s.kv.Get(ctx, kind)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return api.ConsentChoice{}, false, nil
	}
	if err != nil {
		return api.ConsentChoice{}, false, fmt.Errorf("remembered consent for %s: %w", kind, err)
	}
	var c api.ConsentChoice
	if err := json.Unmarshal(e.Value(), &c); err != nil || c.Kind != kind {
		// Treat a damaged entry as none: the person is asked again.
		return api.ConsentChoice{}, false, nil
	}
	return c, true, nil
}

// Set implements Choices.
func (s *KVChoices) Set(ctx context.Context, kind string, approved bool) error {
	if _, err := ParseKind(kind); err != nil {
		return err
	}
	b, err := json.Marshal(api.ConsentChoice{Kind: kind, Approved: approved, DecidedAt: s.now().UTC()})
	if err != nil {
		return fmt.Errorf("remember consent for %s: %w", kind, err)
	}
	if _, err := s.kv.Put(ctx, kind, b); err != nil {
		return fmt.Errorf("remember consent for %s: %w", kind, err)
	}
	return nil
}

// Forget implements Choices. The key is purged, not just deleted, so no
// history of the answer is left.
func (s *KVChoices) Forget(ctx context.Context, kind string) error {
	if _, err := ParseKind(kind); err != nil {
		return err
	}
	if err := s.kv.Purge(ctx, kind); err != nil {
		return fmt.Errorf("forget consent for %s: %w", kind, err)
	}
	return nil
}

// ForgetAll implements Choices.
func (s *KVChoices) ForgetAll(ctx context.Context) (int, error) {
	keys, err := s.keys(ctx)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if err := s.kv.Purge(ctx, k); err != nil {
			return 0, fmt.Errorf("forget consent for %s: %w", k, err)
		}
	}
	return len(keys), nil
}

// List implements Choices.
func (s *KVChoices) List(ctx context.Context) ([]api.ConsentChoice, error) {
	keys, err := s.keys(ctx)
	if err != nil {
		return nil, err
	}
	out := []api.ConsentChoice{}
	for _, k := range keys {
		c, ok, err := s.get(ctx, k)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// keys returns the bucket's live keys, sorted.
func (s *KVChoices) keys(ctx context.Context) ([]string, error) {
	l, err := s.kv.ListKeys(ctx)
	if err != nil {
		return nil, fmt.Errorf("list remembered consent: %w", err)
	}
	defer l.Stop()
	var keys []string
	for k := range l.Keys() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}
