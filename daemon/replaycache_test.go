package daemon

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/store"
)

// TestOpenReplayCache: a data dir's replay cache opens without a daemon,
// under the data dir's machine id, and opens again under the same key.
func TestOpenReplayCache(t *testing.T) {
	home := t.TempDir()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	c, err := OpenReplayCache(home, "new-customer", log)
	if err != nil || len(c.Entries()) != 0 {
		t.Fatalf("OpenReplayCache(new data dir) = %v; want an empty cache", err)
	}
	if _, err := os.Stat(filepath.Join(home, machineIDFile)); err != nil {
		t.Errorf("OpenReplayCache() left no machine id: %v", err)
	}
	if _, err := OpenReplayCache(home, "new-customer", log); err != nil {
		t.Errorf("OpenReplayCache() again = %v; want the same cache", err)
	}
}

// TestOpenReplayCacheFollowsTheRecord: a command that opens the replay
// cache without a daemon takes its key from the store the data dir
// recorded, not from whatever answers now: a data dir that keeps files
// gets a key file even where a keychain answers, and one started before
// with neither a record nor key files is taken to keep its keys in the
// keychain.
func TestOpenReplayCacheFollowsTheRecord(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	home := t.TempDir()
	keys := filepath.Join(home, "keys")
	if err := os.Mkdir(keys, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(keys, store.RecordFile), []byte(store.KeyStoreFile+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenReplayCache(home, "new-customer", log); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(keys, "*.key")); len(files) != 1 {
		t.Fatalf("key files of a data dir recorded as keeping files: %v; want the replay cache's", files)
	}

	// Where the daemon's start left its machine id but no record.
	used := t.TempDir()
	if _, err := LoadOrCreateMachineID(used); err != nil {
		t.Fatal(err)
	}
	if ok, why := (store.KeyringKeyStore{Service: KeyringService(used)}).Probe(); !ok {
		t.Logf("no keychain (%s): a data dir started before would wait for it", why)
		return
	}
	if _, which, err := openKeyStore(used, log); err != nil || which != store.KeyStoreKeychain {
		t.Fatalf("openKeyStore(a data dir started before, with no record and no key files) = %q, %v; want %q", which, err, store.KeyStoreKeychain)
	}
	if got, _ := store.RecordedKeyStore(filepath.Join(used, "keys")); got != store.KeyStoreKeychain {
		t.Errorf("recorded %q for a data dir started before with no key files; want %q", got, store.KeyStoreKeychain)
	}
}
