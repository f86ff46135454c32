package daemon

import (
	"crypto/rand"

	"github.com/reprise-dev/reprise/store"
)

const replayKeyName = "replay-dedupe"

// replayKey is the key replay runs hash dedupe keys with, made at first use.
func (d *Daemon) replayKey() ([]byte, error) {
	return store.LoadOrCreate(d.keys, replayKeyName, func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return b, err
	})
}
