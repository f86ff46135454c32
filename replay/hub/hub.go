// Package hub files a run's rows on many machines (SPEC 12): the hub is a
// plain NATS JetStream cluster; a coordinator puts the run's rows on a
// work-queue stream there, workers on any machine take them, file them
// with their own browser and write the marks and results to the hub's
// REPLAY stream, which the run's state folds from. A row's dedupe key is
// claimed on the hub (a KV create) before the row is filed, so two workers
// never file one record. Skills and row values travel sealed under the hub
// key, which only the machines of the hub hold: the hub's disks keep
// ciphertext.
//
// The hub is not trusted. Anyone who can publish there (a hub user without
// the key) can delay a run or drop its rows, never make a row reported
// committed, nor make the coordinator's machine file a record twice:
//
//   - Queued rows, REPLAY events (plans, marks, results), claims and the
//     workers' requests to the coordinator carry a MAC under a key derived
//     from the hub key (auth.go); what fails it is ignored.
//   - The coordinator (the process that ran `replay --hub`) grants each row
//     to one worker at a time (grant.go) and keeps every grant and result in
//     its own ledger on its disk (ledger.go): a row granted before and not
//     settled is only ever settled (verified on the site, or reported
//     unknown), and a record an earlier run from that machine filed or began
//     is not filed again, whatever was purged on the hub.
//   - A row whose message left the queue without a result is reported not
//     run (never granted) or unknown (granted), never committed.
//
// What the ledger cannot give: a run resumed, or a record filed again, from
// another machine knows the earlier runs only from the hub's claims and
// marks, which a hub user can delete (not forge).
package hub

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/store"
)

// What reprise keeps on a hub, beside the REPLAY stream.
const (
	StreamRows   = events.StreamHubRows      // work queue: hub.rows.<run>, one message per row to file
	BucketClaims = events.BucketHubClaims    // <skill>.<dedupe key> -> the run and row filing it
	BucketSkills = events.BucketHubSkills    // <run> -> the run's skill document, sealed
	Consumer     = events.ConsumerHubWorkers // the one pull consumer every worker shares
	rowsPrefix   = events.HubRowsPrefix
)

// Lease is how long a worker holds a row without a sign of life before
// another worker may take it over: it sends one every Lease/3.
const Lease = 15 * time.Second

// Connect connects to a hub: urls is one or more nats:// URLs, comma
// separated, and cred how to sign in (credentials in the URLs count too,
// for URLs that came from a file or the environment; a command line's go
// through CheckArgv first). It keeps trying servers for as long as its
// caller keeps the connection.
func Connect(urls, name string, cred Credentials) (*nats.Conn, jetstream.JetStream, error) {
	opts, err := cred.options()
	if err != nil {
		return nil, nil, err
	}
	opts = append(opts, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
		nats.RetryOnFailedConnect(false))
	nc, err := nats.Connect(urls, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("hub %s: %w", Redact(urls), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return nc, js, nil
}

// Redact hides the passwords and tokens in hub URLs, for messages and
// logs. (url.Redacted hides a password, not a token: a user alone.)
func Redact(urls string) string {
	var out []string
	for _, s := range strings.Split(urls, ",") {
		if u, err := url.Parse(s); err == nil {
			if _, has := u.User.Password(); u.User != nil && !has {
				u.User = url.User("xxxxx")
			}
			s = u.Redacted()
		} else {
			s = "(a malformed URL)" // which may hold a password
		}
		out = append(out, s)
	}
	return strings.Join(out, ",")
}

// Ensure creates what reprise keeps on the hub, each with three replicas
// (one on a hub of a single server, for trying it out), and the workers'
// consumer. It is idempotent.
func Ensure(ctx context.Context, js jetstream.JetStream) error {
	return withReplicas(func(r int) error {
		if _, err := stream(ctx, js, jetstream.StreamConfig{Name: events.StreamReplay, Subjects: []string{events.ReplayAll},
			Storage: jetstream.FileStorage, Replicas: r, Duplicates: 10 * time.Minute}); err != nil {
			return err
		}
		rows, err := stream(ctx, js, jetstream.StreamConfig{Name: StreamRows, Subjects: []string{rowsPrefix + ">"},
			Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: r, Duplicates: 10 * time.Minute})
		if err != nil {
			return err
		}
		if _, err := rows.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: Consumer, AckPolicy: jetstream.AckExplicitPolicy,
			AckWait: Lease, MaxAckPending: 1000, Replicas: r}); err != nil {
			return fmt.Errorf("consumer %s: %w", Consumer, err)
		}
		for _, b := range []string{BucketClaims, BucketSkills} {
			if _, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: b, Storage: jetstream.FileStorage, Replicas: r}); err != nil {
				return fmt.Errorf("bucket %s: %w", b, err)
			}
		}
		if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: events.ObjectsHubFiles, Storage: jetstream.FileStorage, Replicas: r}); err != nil {
			return fmt.Errorf("object store %s: %w", events.ObjectsHubFiles, err)
		}
		return nil
	})
}

// stream returns stream c.Name, made as c when the hub has none: one that
// is there is left as its operator made it.
func stream(ctx context.Context, js jetstream.JetStream, c jetstream.StreamConfig) (jetstream.Stream, error) {
	s, err := js.Stream(ctx, c.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		s, err = js.CreateStream(ctx, c)
	}
	if err != nil {
		return nil, fmt.Errorf("stream %s: %w", c.Name, err)
	}
	return s, nil
}

// withReplicas runs make with 3 replicas, or 1 when the hub has too few
// servers for 3.
func withReplicas(make func(int) error) error {
	err := make(3)
	var api *jetstream.APIError
	// 10023: insufficient resources (a cluster of fewer than 3); 10074:
	// replicas > 1 not supported in non-clustered mode.
	if errors.As(err, &api) && (api.ErrorCode == 10023 || api.ErrorCode == 10074) {
		return make(1)
	}
	return err
}

// Key seals what travels through the hub: the run's skill and each row's
// values; and it MACs what travels in the clear (auth.go). Every machine of
// the hub holds the same one, copied there by the person; the hub's servers
// never do.
type Key struct {
	raw  []byte
	aead *store.AEAD
	mac  []byte // the MAC key, derived for that purpose alone
	id   string // names the key on the hub; reveals nothing of it
}

// LoadKey reads the hub key at path; create makes a new one there when
// there is none (readable by its owner only).
func LoadKey(path string, create bool) (*Key, error) {
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && create {
		raw = make([]byte, store.DataKeySize)
		if _, err := rand.Read(raw); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("hub key: %w", err)
		}
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			return nil, fmt.Errorf("hub key: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("hub key: %w (copy the hub key file from the machine that made it)", err)
	}
	a, err := store.NewAEAD(raw)
	if err != nil {
		return nil, fmt.Errorf("hub key %s: %w", path, err)
	}
	return &Key{raw: raw, aead: a, mac: derive(raw, "reprise hub mac v1"),
		id: hex.EncodeToString(derive(raw, "reprise hub key id")[:8])}, nil
}

// derive is a key for one purpose, from the hub key: what one purpose's
// key shows (a MAC, a salt, an id) tells nothing of another's.
func derive(raw []byte, purpose string) []byte {
	m := hmac.New(sha256.New, raw)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// ID names the key: two machines with the same ID hold the same hub key.
// It is safe to show and to put on the hub.
func (k *Key) ID() string { return k.id }

// Salt is what the hub's rows' dedupe keys are keyed with: the same on
// every machine of the hub, so a resume from another machine names each
// row's record as the first run did.
func (k *Key) Salt() []byte { return derive(k.raw, "reprise hub dedupe salt") }

func (k *Key) seal(plain []byte, place string) []byte {
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		panic(err) // the system's randomness is gone: nothing can be sealed
	}
	return k.aead.Seal(nonce, nonce, plain, []byte(place))
}

func (k *Key) open(sealed []byte, place string) ([]byte, error) {
	n := k.aead.NonceSize()
	if len(sealed) < n {
		return nil, store.ErrNotAuthentic
	}
	return k.aead.Open(nil, sealed[:n], sealed[n:], []byte(place))
}

// Item is one row of a run on the work queue. Values are the row's values,
// sealed to the run and row; the message carries a MAC of the whole item
// and its subject (HeaderMAC), so that no field of it can be changed or
// made up by someone without the key.
type Item struct {
	Run     string `msgpack:"run"`
	SkillID string `msgpack:"skill_id"`
	Digest  string `msgpack:"digest"`
	Row     int    `msgpack:"row"`
	Key     string `msgpack:"key"`
	Session int    `msgpack:"session"`
	DryRun  bool   `msgpack:"dry_run,omitempty"`
	Again   bool   `msgpack:"again,omitempty"`
	Values  []byte `msgpack:"values"`
	// Files says the row's upload files wait sealed in ObjectsHubFiles.
	Files bool `msgpack:"files,omitempty"`
}

func rowPlace(run string, row int) string { return fmt.Sprintf("row %s/%d", run, row) }
func skillPlace(run string) string        { return "skill " + run }

// retry runs op until it succeeds, fails for good, or a minute of
// transient errors (a leader election, a reconnect) has passed.
func retry(ctx context.Context, op func() error) error {
	giveUp := time.Now().Add(time.Minute)
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		err := op()
		if err == nil || !replay.Transient(err) || time.Now().After(giveUp) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}
