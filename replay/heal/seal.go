package heal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/reprise-dev/reprise/store"
)

// The replay cache is on disk, where anyone who can write the data dir
// can edit it; an entry steers what reprise clicks with no model call.
// So each entry is signed with HMAC-SHA256 under a key kept in the key
// store (the OS keychain, or the key files where there is none), its own
// item: an entry changed on disk, unsigned, or copied from another data
// dir's cache does not verify and is never used. Entries are signed one
// by one so that one bad entry costs that step's entry alone.

// cacheKeyPrefix names the replay cache's key items: a trust boundary of
// its own (SPEC section 7), apart from the audit-chain and consent keys.
const cacheKeyPrefix = "replay-cache"

// minCacheKey is the shortest key OpenCache accepts, in bytes.
const minCacheKey = 32

// CacheKeyName is the key store item of the replay cache key of the data
// dir whose machine id is scope: the keychain is shared by every data dir
// of a user, and one dir's cache must not verify in another's.
func CacheKeyName(scope string) string {
	if scope == "" {
		return cacheKeyPrefix
	}
	return cacheKeyPrefix + "-" + scope
}

// CacheKey returns the replay cache key of the data dir whose machine id
// is scope, creating it on first use.
func CacheKey(ks store.KeyStore, scope string) ([]byte, error) {
	key, err := store.LoadOrCreate(ks, CacheKeyName(scope), func() ([]byte, error) {
		k := make([]byte, minCacheKey)
		_, err := rand.Read(k)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("the replay cache key: %w", err)
	}
	return key, nil
}

// cacheKeys are the keys derived from the cache key, one per use, so that
// a digest of a value can never pass for a signature.
type cacheKeys struct {
	sign, assumes []byte
}

func deriveKeys(key []byte) cacheKeys {
	derive := func(label string) []byte {
		m := hmac.New(sha256.New, key)
		m.Write([]byte("reprise replay cache v2 " + label))
		return m.Sum(nil)
	}
	return cacheKeys{sign: derive("entry"), assumes: derive("assumes")}
}

// signed is what an entry's MAC covers: the entry as encoding/json writes
// it (struct fields in order, map keys sorted) with its MAC left empty,
// bound to the cache's version, skill and salt so that an entry moved to
// another skill's cache, or under another salt, does not verify.
type signed struct {
	Version int    `json:"version"`
	Skill   string `json:"skill"`
	Salt    string `json:"salt"`
	Entry   Entry  `json:"entry"`
}

// sign returns e's MAC.
func (c *Cache) sign(e Entry) string {
	e.MAC = ""
	data, err := json.Marshal(signed{Version: CacheVersion, Skill: c.skill, Salt: c.f.Salt, Entry: e})
	if err != nil {
		return "" // an entry that cannot be encoded verifies against nothing
	}
	m := hmac.New(sha256.New, c.keys.sign)
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil))
}

// verified returns the entries whose MAC holds, and keeps a note for each
// other: by its step, never what it holds.
func (c *Cache) verified(entries []Entry) []Entry {
	var ok []Entry
	for _, e := range entries {
		want := c.sign(e)
		switch {
		case want != "" && hmac.Equal([]byte(e.MAC), []byte(want)):
			ok = append(ok, e)
		case e.MAC == "":
			c.rejected = append(c.rejected, fmt.Sprintf("step %d: the replay cache's entry is not signed: ignored, the model is asked again", e.Step+1))
		default:
			c.rejected = append(c.rejected, fmt.Sprintf("step %d: the replay cache's entry does not match its signature (changed on disk, or from another data dir): ignored, the model is asked again", e.Step+1))
		}
	}
	return ok
}

// TakeNotes returns, once, a note for each entry of the file that was
// ignored because it did not verify: for the run's report.
func (c *Cache) TakeNotes() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.rejected
	c.rejected = nil
	return out
}
