package heal

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
	"github.com/reprise-dev/reprise/store"
)

// testKey is a data dir's replay cache key, from a key store of files of
// its own (store's fallback where no keychain is), as CacheKey makes it.
func testKey(t testing.TB) []byte {
	t.Helper()
	key, err := CacheKey(store.FileKeyStore{Dir: t.TempDir()}, "m_test")
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// healedCache heals step 2 of row 1 into a cache in dir under key, as a
// first run does, and returns the cache file's path.
func healedCache(t *testing.T, dir string, key []byte) string {
	t.Helper()
	sk, err := skills.Parse([]byte(skillYAML))
	if err != nil {
		t.Fatal(err)
	}
	c, err := OpenCache(dir, "customer", key)
	if err != nil {
		t.Fatal(err)
	}
	p := form()
	e := New(p, Options{Skill: sk, Model: &llm{answers: []string{`{"action":"step","element":"e5"}`}}, Look: p.look, Cache: c, WatchesClicks: true})
	if out, err := e.Do(context.Background(), step(sk, 1, 1)); err != nil || !out.OK || out.Via != replay.ViaModel {
		t.Fatalf("row 1: %+v, %v; want healed by the model", out, err)
	}
	return filepath.Join(dir, "customer.json")
}

// edit changes the cache file as someone with write access to the data
// dir could.
func edit(t *testing.T, path string, change func(entry map[string]any)) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	change(f["entries"].([]any)[0].(map[string]any))
	if data, err = json.Marshal(f); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCacheEntriesAreSigned: the next run uses a cache entry only when it
// verifies under this data dir's key; one changed on disk, unsigned, or
// copied from another data dir is ignored with a note in the report and
// a warning in the log, and the model is asked instead.
func TestCacheEntriesAreSigned(t *testing.T) {
	for _, tc := range []struct {
		name string
		// tamper changes the cache in dir, made under key; it returns the
		// dir and key the next run opens.
		tamper func(t *testing.T, dir, path string, key []byte) (string, []byte)
		note   string // "" when the entry is used
	}{
		{"valid", func(t *testing.T, dir, _ string, key []byte) (string, []byte) { return dir, key }, ""},
		{"target edited to another element", func(t *testing.T, dir, path string, key []byte) (string, []byte) {
			edit(t, path, func(e map[string]any) { e["target"] = map[string]any{"role": "text_field", "name": "Search"} })
			return dir, key
		}, "does not match its signature"},
		{"signature removed", func(t *testing.T, dir, path string, key []byte) (string, []byte) {
			edit(t, path, func(e map[string]any) { delete(e, "mac") })
			return dir, key
		}, "not signed"},
		{"copied from another data dir", func(t *testing.T, _, path string, _ []byte) (string, []byte) {
			other := t.TempDir()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(other, "customer.json"), data, 0o600); err != nil {
				t.Fatal(err)
			}
			return other, testKey(t) // the other dir has a key of its own
		}, "does not match its signature"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, key := t.TempDir(), testKey(t)
			path := healedCache(t, dir, key)
			dir, key = tc.tamper(t, dir, path, key)

			c, err := OpenCache(dir, "customer", key)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(c.Entries()); got != map[bool]int{true: 1, false: 0}[tc.note == ""] {
				t.Fatalf("%d entries kept", got)
			}
			sk, _ := skills.Parse([]byte(skillYAML))
			p, m := form(), &llm{answers: []string{`{"action":"step","element":"e5"}`}}
			p.tree = append(p.tree, el("text_field", "Search", -1)) // what the edited entry points at
			var logged bytes.Buffer
			e := New(p, Options{Skill: sk, Model: m, Look: p.look, Cache: c, WatchesClicks: true, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
			out, err := e.Do(context.Background(), step(sk, 2, 1))
			if err != nil || !out.OK {
				t.Fatalf("row 2: %+v, %v", out, err)
			}
			if got := strings.Join(p.ran, ", "); got != "fill E-mail address" {
				t.Errorf("ran %s; want the e-mail field filled, never the edited entry's", got)
			}
			notes := strings.Join(out.Notes, "\n")
			if tc.note == "" {
				if out.Via != replay.ViaCache || out.ModelCalls != 0 || notes != "" {
					t.Errorf("a valid entry: via %s, %d model calls, notes %q; want the cache, none", out.Via, out.ModelCalls, notes)
				}
				return
			}
			if out.Via != replay.ViaModel || out.ModelCalls != 1 {
				t.Errorf("via %s, %d model calls; want the model asked once", out.Via, out.ModelCalls)
			}
			if !strings.Contains(notes, "step 2: the replay cache's entry") || !strings.Contains(notes, tc.note) {
				t.Errorf("notes %q; want step 2's entry said ignored (%s)", notes, tc.note)
			}
			if !strings.Contains(logged.String(), "replay cache entry ignored") {
				t.Errorf("no warning logged:\n%s", logged.String())
			}
			for _, v := range []string{"ada@example.org", "Ada"} {
				if strings.Contains(notes+logged.String(), v) {
					t.Errorf("a row's value %q is in the notes or the log", v)
				}
			}
			// The note is said once a run, and the entry the model made
			// replaces the bad one, signed.
			if again, _ := e.Do(context.Background(), step(sk, 3, 1)); len(again.Notes) != 0 || again.Via != replay.ViaCache {
				t.Errorf("row 3: notes %q via %s; want the new entry, no note", again.Notes, again.Via)
			}
			if c2, err := OpenCache(dir, "customer", key); err != nil || len(c2.Entries()) != 1 || len(c2.TakeNotes()) != 0 {
				t.Errorf("the cache saved after the model answered does not verify: %v", err)
			}
		})
	}
}

// TestCacheOfVersion1IsSetAside: a cache from before entries were signed
// is set aside, never used.
func TestCacheOfVersion1IsSetAside(t *testing.T) {
	dir := t.TempDir()
	old := `{"version": 1, "skill": "customer", "salt": "00", "entries": [{"step": 1, "target": {"role": "text_field", "name": "Search"},
		"action": "fill", "value": "%email%", "fingerprint": "x", "saved": "2026-01-01T00:00:00Z"}]}`
	if err := os.WriteFile(filepath.Join(dir, "customer.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCache(dir, "customer", testKey(t))
	if err != nil || !c.Ignored || len(c.Entries()) != 0 {
		t.Fatalf("a version 1 cache: %v, ignored %v; want it set aside", err, c != nil && c.Ignored)
	}
}

func TestOpenCacheWantsAKey(t *testing.T) {
	if _, err := OpenCache(t.TempDir(), "customer", []byte("short")); err == nil || strings.Contains(err.Error(), "short") {
		t.Errorf("OpenCache(a short key) = %v; want an error that does not quote it", err)
	}
}

// TestCacheKeyInTheKeychain: the key is an item of its own in the OS
// keychain (run under scripts/with-keyring for a real Secret Service),
// made once, and each data dir has its own.
func TestCacheKeyInTheKeychain(t *testing.T) {
	ks := store.KeyringKeyStore{Service: "reprise-test-heal"}
	if ok, why := ks.Probe(); !ok {
		t.Skipf("no keychain here (%s): run under scripts/with-keyring", why)
	}
	t.Cleanup(func() {
		_ = ks.Delete(CacheKeyName("m_a"))
		_ = ks.Delete(CacheKeyName("m_b"))
	})
	a, err := CacheKey(ks, "m_a")
	if err != nil {
		t.Fatal(err)
	}
	again, err := CacheKey(ks, "m_a")
	if err != nil || !bytes.Equal(a, again) || len(a) < minCacheKey {
		t.Fatalf("the key was not kept: %v", err)
	}
	b, err := CacheKey(ks, "m_b")
	if err != nil || bytes.Equal(a, b) {
		t.Fatalf("two data dirs share a key: %v", err)
	}
	for _, name := range []string{store.AuditChainKey, store.ConsentSigningKey} {
		if CacheKeyName("m_a") == name {
			t.Errorf("the cache key shares the item %s", name)
		}
	}
}

// FuzzCacheLoad: whatever a cache file holds, reading it never panics,
// and every entry it keeps verifies under the key.
func FuzzCacheLoad(f *testing.F) {
	key := bytes.Repeat([]byte{7}, minCacheKey)
	dir := f.TempDir()
	c, err := OpenCache(dir, "s", key)
	if err != nil {
		f.Fatal(err)
	}
	st := skills.Step{Action: "fill", Label: "Email", Value: "%email%"}
	if err := c.Store(Change{Step: 1, Target: selector.Selector{Role: "text_field", Name: "E-mail"}}, st, []string{"plan"}, map[string]string{"plan": "x"}); err != nil {
		f.Fatal(err)
	}
	valid, err := os.ReadFile(filepath.Join(dir, "s.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(valid)
	f.Add(bytes.Replace(valid, []byte("E-mail"), []byte("Delete"), 1))
	for _, s := range []string{`{}`, `{"version":2,"skill":"s","entries":[{"mac":""}]}`, `{"version":2,"skill":"s","entries":null}`,
		`{"version":2,"skill":"s","entries":[{"step":-1,"target":{"role":"button","in":{"role":"group"}}}]}`, `[`, `{"version":"2"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &Cache{path: "s.json", skill: "s", keys: deriveKeys(key)}
		if err := c.load(data); err != nil {
			return
		}
		for _, e := range c.f.Entries {
			if e.MAC == "" || e.MAC != c.sign(e) {
				t.Fatalf("an entry that does not verify was kept: %+v", e)
			}
		}
		if c.Ignored && len(c.f.Entries) != 0 {
			t.Fatal("a file of another version was used")
		}
	})
}
