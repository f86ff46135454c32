package hub

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// claimKey names a row's record in the claims bucket: the skill and the
// row's dedupe key, and the run when it files records again (--again),
// hashed to what a KV key may hold.
func claimKey(it Item) string {
	h := sha256.New()
	for _, s := range []string{it.SkillID, it.Key} {
		fmt.Fprintf(h, "%d:%s", len(s), s)
	}
	if it.Again {
		fmt.Fprintf(h, "again:%s", it.Run)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// claim is what the claims bucket holds for a record being filed. MAC is
// under the hub key, over the claim's key and fields: a claim without a
// valid one is not a claim, and is taken over.
type claim struct {
	Run    string `json:"run"`
	Row    int    `json:"row"`
	Holder string `json:"holder"`
	At     int64  `json:"at"` // unix ms of the holder's last sign of life
	MAC    []byte `json:"mac"`
}

// sealClaim is c's value under key, with its MAC.
func (k *Key) sealClaim(key string, c claim) []byte {
	c.MAC = nil
	b, _ := json.Marshal(c)
	c.MAC = k.sum(kindClaim, key, b)
	b, _ = json.Marshal(c)
	return b
}

// openClaim reads a claim's value under key: ErrNotAuthentic when it is
// malformed or its MAC fails.
func (k *Key) openClaim(key string, value []byte) (claim, error) {
	var c claim
	if err := json.Unmarshal(value, &c); err != nil {
		return claim{}, ErrNotAuthentic
	}
	mac := c.MAC
	c.MAC = nil
	b, _ := json.Marshal(c)
	if !hmac.Equal(mac, k.sum(kindClaim, key, b)) {
		return claim{}, ErrNotAuthentic
	}
	return c, nil
}

// claim claims key for c: created, or taken over from a holder of the same
// row that showed no sign of life for a Lease, or from a value without a
// valid MAC (not a claim). other is the claim that stays someone else's.
func (w *Worker) claim(ctx context.Context, kv jetstream.KeyValue, key string, c claim) (rev uint64, other *claim, err error) {
	c.At = time.Now().UnixMilli()
	b := w.Key.sealClaim(key, c)
	err = retry(ctx, func() (err error) { rev, err = kv.Create(ctx, key, b); return err })
	if !errors.Is(err, jetstream.ErrKeyExists) {
		return rev, nil, err
	}
	var e jetstream.KeyValueEntry
	if err := retry(ctx, func() (err error) { e, err = kv.Get(ctx, key); return err }); err != nil {
		return 0, nil, err
	}
	held, err := w.Key.openClaim(key, e.Value())
	switch {
	case err != nil:
		w.Logger.Warn("hub: a claim without a valid MAC, taken over", "run_id", c.Run, "row", c.Row)
	case held.Run != c.Run || held.Row != c.Row:
		return 0, &held, nil
	case held.Holder == c.Holder: // our create landed; its answer did not
		return e.Revision(), nil, nil
	case time.Since(time.UnixMilli(held.At)) < Lease:
		return 0, &held, nil
	}
	rev, err = kv.Update(ctx, key, b, e.Revision())
	if err != nil {
		return 0, &claim{Run: c.Run, Row: c.Row}, nil // another worker took it over first
	}
	return rev, nil, nil
}
