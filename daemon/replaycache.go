package daemon

import (
	"log/slog"
	"path/filepath"

	"github.com/reprise-dev/reprise/replay/heal"
)

// OpenReplayCache opens skill id's replay cache in the data dir home: a
// file per skill in its cache folder, signed with a key from the key store
// the daemon uses (the keychain, or the data dir's key files: the one
// recorded at its first start), its item named after the data dir's machine
// id. It needs no running daemon: a replay and `reprise cache` open it
// themselves.
func OpenReplayCache(home, id string, log *slog.Logger) (*heal.Cache, error) {
	ks, _, err := openKeyStore(home, log)
	if err != nil {
		return nil, err
	}
	machine, err := LoadOrCreateMachineID(home)
	if err != nil {
		return nil, err
	}
	key, err := heal.CacheKey(ks, machine)
	if err != nil {
		return nil, err
	}
	return heal.OpenCache(ReplayCacheDir(home), id, key)
}

// ReplayCacheDir is the folder of the data dir home's replay caches.
func ReplayCacheDir(home string) string { return filepath.Join(home, "cache") }
