package heal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// CacheVersion is the replay cache's format. A file of another version is
// set aside: the model is asked again, and what it chooses replaces it.
// Version 2 signs each entry (see seal.go): version 1 entries, unsigned,
// are never used.
const CacheVersion = 2

// Change is what a model did for one step to go through: clicks before it
// (each by the element it clicked) and the element the step itself ran
// on. Selectors hold a row's values as placeholders, never a value.
type Change struct {
	Step   int                 `json:"step"` // the step's index, from 0
	Before []selector.Selector `json:"before,omitempty"`
	Target selector.Selector   `json:"target"`
}

// Describe says what the change is, for the report: each from 1.
func (c Change) Describe(was skills.Step) []string {
	var out []string
	for _, b := range c.Before {
		out = append(out, fmt.Sprintf("step %d (%s): clicked %s first", c.Step+1, was.Action, b))
	}
	from := "its recorded selectors"
	if was.Target != nil {
		from = was.Target.String()
	}
	return append(out, fmt.Sprintf("step %d (%s): found as %s (was %s)", c.Step+1, was.Action, c.Target, from))
}

// Entry is one cached change: the change, the step it was made for (its
// fingerprint: the same step as written), when, and the digests of the
// row's values the model's choice may rest on (ones it was shown on the
// page) that no selector of the change uses.
type Entry struct {
	Change
	// Action and Value are the step's, as written (placeholders, never a
	// row's value): what the pinned form of the entry does.
	Action      string            `json:"action"`
	Value       string            `json:"value,omitempty"`
	Fingerprint string            `json:"fingerprint"`
	Saved       time.Time         `json:"saved"`
	Assumes     map[string]string `json:"assumes,omitempty"`
	// MAC signs the entry with this data dir's replay cache key (seal.go):
	// an entry without a valid one is never used.
	MAC string `json:"mac"`
}

// cacheFile is the JSON of one skill's cache.
type cacheFile struct {
	Version int     `json:"version"`
	Skill   string  `json:"skill"`
	Salt    string  `json:"salt"`
	Entries []Entry `json:"entries"`
}

// Cache is one skill's replay cache on this host: cache/<skill>.json in
// the data dir, readable by its owner only, each entry signed (seal.go). It is safe for concurrent use
// within a process; a process writes it whole, by a rename.
type Cache struct {
	path, skill string
	keys        cacheKeys
	mu          sync.Mutex
	f           cacheFile
	// Ignored says a file of another version was found and set aside.
	Ignored bool
	// rejected are the entries read that were not signed with this data
	// dir's key: never used, reported once (TakeNotes).
	rejected []string
}

// OpenCache reads skill's cache in dir (a missing file is an empty cache);
// key is this data dir's replay cache key (CacheKey). An entry that is not
// signed with it (changed on disk, unsigned, or copied from another data
// dir) is left out, and said by TakeNotes.
func OpenCache(dir, skill string, key []byte) (*Cache, error) {
	if len(key) < minCacheKey {
		return nil, fmt.Errorf("open the replay cache of %s: the cache key is %d bytes; want at least %d", skill, len(key), minCacheKey)
	}
	c := &Cache{path: filepath.Join(dir, skill+".json"), skill: skill, keys: deriveKeys(key)}
	data, err := os.ReadFile(c.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("read the replay cache of %s: %w", skill, err)
	default:
		if err := c.load(data); err != nil {
			return nil, err
		}
	}
	c.f.Version, c.f.Skill = CacheVersion, skill
	if c.f.Salt == "" {
		salt := make([]byte, 16)
		if _, err := rand.Read(salt); err != nil {
			return nil, fmt.Errorf("open the replay cache of %s: a salt: %w", skill, err)
		}
		c.f.Salt = hex.EncodeToString(salt)
	}
	return c, nil
}

// DamagedError: a replay cache file that does not decode. Removing it
// (RemoveCache) lets the model be asked again.
type DamagedError struct {
	Path, Skill string
	Err         error
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("the replay cache %s is damaged (%v): remove it, and the model is asked again", e.Path, e.Err)
}

func (e *DamagedError) Unwrap() error { return e.Err }

// load decodes a cache file's bytes into c: a file of another version is
// set aside (Ignored), and of the entries only those that verify are kept.
func (c *Cache) load(data []byte) error {
	var f cacheFile
	if err := json.Unmarshal(data, &f); err != nil {
		return &DamagedError{Path: c.path, Skill: c.skill, Err: err}
	}
	if f.Version != CacheVersion {
		c.Ignored = true
		return nil
	}
	if f.Skill != c.skill {
		return fmt.Errorf("the replay cache %s belongs to skill %q, not %q", c.path, short(f.Skill), c.skill)
	}
	c.f = f
	c.f.Entries = c.verified(f.Entries)
	return nil
}

// Entries returns the cache's entries, by step.
func (c *Cache) Entries() []Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.f.Entries)
	slices.SortStableFunc(out, func(a, b Entry) int { return a.Step - b.Step })
	return out
}

// Lookup returns the entry for the step as written (its fingerprint) that
// fits the row's values.
func (c *Cache) Lookup(index int, st skills.Step, values map[string]string) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fp := fingerprint(st)
	for _, e := range c.f.Entries {
		if e.Step == index && e.Fingerprint == fp && c.fits(e, values) {
			return e, true
		}
	}
	return Entry{}, false
}

func (c *Cache) fits(e Entry, values map[string]string) bool {
	for name, d := range e.Assumes {
		v, ok := values[name]
		if !ok || !hmac.Equal([]byte(c.digest(name, v)), []byte(d)) {
			return false
		}
	}
	return true
}

// Store keeps ch for the step as written, replacing the step's entries;
// shown are the parameters whose placeholders the model was shown, whose
// values the entry then assumes unless a selector of ch uses them.
func (c *Cache) Store(ch Change, st skills.Step, shown []string, values map[string]string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := Entry{Change: ch, Action: st.Action, Value: st.Value, Fingerprint: fingerprint(st), Saved: time.Now().UTC().Truncate(time.Second)}
	used := usedBy(ch, st)
	for _, name := range shown {
		if !used[name] {
			if e.Assumes == nil {
				e.Assumes = map[string]string{}
			}
			e.Assumes[name] = c.digest(name, values[name])
		}
	}
	e.MAC = c.sign(e)
	c.f.Entries = slices.DeleteFunc(c.f.Entries, func(x Entry) bool { return x.Step == ch.Step })
	c.f.Entries = append(c.f.Entries, e)
	return c.save()
}

// Clear removes the entries of step index, or all of them when index < 0,
// and reports how many it removed.
func (c *Cache) Clear(index int) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.f.Entries)
	c.f.Entries = slices.DeleteFunc(c.f.Entries, func(x Entry) bool { return index < 0 || x.Step == index })
	removed := n - len(c.f.Entries)
	if len(c.f.Entries) == 0 {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, err
		}
		return removed, nil
	}
	return removed, c.save()
}

func (c *Cache) save() error {
	data, err := json.MarshalIndent(c.f, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the replay cache of %s: %w", c.skill, err)
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return fmt.Errorf("save the replay cache of %s: %w", c.skill, err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), "."+c.skill+".*.tmp")
	if err != nil {
		return fmt.Errorf("save the replay cache of %s: %w", c.skill, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("save the replay cache of %s: %w", c.skill, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("save the replay cache of %s: %w", c.skill, err)
	}
	if err := os.Rename(tmp.Name(), c.path); err != nil {
		return fmt.Errorf("save the replay cache of %s: %w", c.skill, err)
	}
	return nil
}

// digest is a value's keyed, salted digest: whether a row holds the value
// an entry assumes can be told, the value cannot be read back, nor
// guessed from a list without this data dir's key.
func (c *Cache) digest(name, value string) string {
	mac := hmac.New(sha256.New, c.keys.assumes)
	mac.Write([]byte(c.f.Salt + "\x00" + name + "\x00" + value))
	return hex.EncodeToString(mac.Sum(nil))
}

// fingerprint names a step as written: its entries apply to it alone.
func fingerprint(st skills.Step) string {
	st.AI = "" // how much AI decides does not change what the step is
	data, _ := json.Marshal(st)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

// usedBy are the parameters a change's selectors or the step's value use.
func usedBy(ch Change, st skills.Step) map[string]bool {
	used := map[string]bool{}
	add := func(s string) {
		names, _ := skills.Placeholders(s)
		for _, n := range names {
			used[n] = true
		}
	}
	add(st.Value)
	for _, s := range append(slices.Clone(ch.Before), ch.Target) {
		for p := &s; p != nil; p = p.In {
			add(p.Name)
		}
	}
	return used
}

// shownIn returns the parameters whose placeholders text holds.
func shownIn(text string) []string {
	var out []string
	for _, m := range placeholderAny.FindAllString(text, -1) {
		name := strings.Trim(m, "%")
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// RemoveCache removes skill's whole cache in dir, damaged or not.
func RemoveCache(dir, skill string) error {
	err := os.Remove(filepath.Join(dir, skill+".json"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove the replay cache of %s: %w", skill, err)
	}
	return nil
}
