package recordings

import (
	"log/slog"

	"github.com/nats-io/nats.go/jetstream"
)

// Reader reads recordings back from RECORDINGS and FRAMES. It is safe for
// concurrent use.
type Reader struct {
	js    jetstream.JetStream
	seal  *Sealers
	log   *slog.Logger
	check storeCheck // what CheckStore found
}

// New returns a reader of the recordings in js, opened with seal's keys;
// log, if nil, discards.
func New(js jetstream.JetStream, seal *Sealers, log *slog.Logger) *Reader {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Reader{js: js, seal: seal, log: log}
}

// Sealers are the reader's: the recorder seals with the same.
func (r *Reader) Sealers() *Sealers { return r.seal }
