package daemon

import (
	"crypto/rand"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/store"
)

// ReplayKeySubject hands the local CLI the key its replay runs hash row
// dedupe keys with: a plain hash of an email is found again by guessing;
// an HMAC under a key only this machine holds is not.
// The reply is the key's bytes (status.go serves it).
const ReplayKeySubject = events.LocalSubjectPrefix + ".replay.key"

const replayKeyName = "replay-dedupe"

// replayKey is the key replay runs hash dedupe keys with, made at first use.
func (d *Daemon) replayKey() ([]byte, error) {
	return store.LoadOrCreate(d.keys, replayKeyName, func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return b, err
	})
}
