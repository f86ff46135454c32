package daemon

import (
	"crypto/rand"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/store"
)

// ReplayKeySubject hands the local CLI the key its replay runs hash row
// dedupe keys with: a plain hash of an email is found again by guessing;
// an HMAC under a key only this machine holds is not.
const ReplayKeySubject = events.LocalSubjectPrefix + ".replay.key"

const replayKeyName = "replay-dedupe"

func (d *Daemon) serveReplayKey() error {
	key, err := d.replayKey()
	if err != nil {
		return err
	}
	_, err = d.nc.Subscribe(ReplayKeySubject, func(m *nats.Msg) {
		if err := m.Respond(key); err != nil {
			d.log.Warn("the replay key's reply did not reach the CLI", "err", err)
		}
	})
	return err
}

// replayKey is the key replay runs hash dedupe keys with, made at first use.
func (d *Daemon) replayKey() ([]byte, error) {
	return store.LoadOrCreate(d.keys, replayKeyName, func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return b, err
	})
}
