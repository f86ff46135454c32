package audit

import (
	"bytes"
	"crypto/hmac"
	"maps"
	"time"
)

// Checkpoint is a chain head someone remembers: the last entry's Seq and MAC.
//
// A MAC chain alone cannot show that its tail was cut off: the shorter chain
// is still a valid chain. So the daemon keeps the Checkpoint of its last
// append (Log.Head) outside the AUDIT stream, tagged (SealedCheckpoint) in a
// file of the data dir, and passes it to Verify. A copy of the data dir
// restored from before brings an older genuine checkpoint with it; the
// HighWater the daemon also keeps in the key store is what sees that. Verify then reports a chain that ends
// before Seq as truncated, and a chain whose entry Seq has another MAC as
// rewritten. The zero Checkpoint expects nothing.
type Checkpoint struct {
	Seq uint64 `json:"seq"`
	MAC []byte `json:"mac,omitempty"`
}

// IsZero reports whether c expects nothing.
func (c Checkpoint) IsZero() bool { return c.Seq == 0 }

// chain builds the entries that extend a head. It is the pure half of Log:
// no I/O, not safe for concurrent use.
type chain struct {
	key  []byte
	head Checkpoint
	last *Entry // the entry head names, when this chain wrote or read it
}

func newChain(key []byte, head Checkpoint) (*chain, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	return &chain{key: bytes.Clone(key), head: head}, nil
}

// next returns the entry that would follow the head, without moving the
// head: Log moves it only once JetStream has stored the entry.
func (c *chain) next(t time.Time, kind string, fields map[string]string) (*Entry, error) {
	if err := CheckFields(kind, fields); err != nil {
		return nil, err
	}
	e := &Entry{
		Seq:  c.head.Seq + 1,
		Time: entryTime(t),
		Kind: kind,
		Prev: bytes.Clone(c.head.MAC),
	}
	if len(fields) > 0 {
		e.Fields = maps.Clone(fields)
	}
	e.MAC = computeMAC(c.key, e)
	return e, nil
}

// advance makes e the head.
func (c *chain) advance(e *Entry) { c.head, c.last = Checkpoint{Seq: e.Seq, MAC: e.MAC}, e }

// entryTime is t as an entry carries it: seconds, to the microsecond.
func entryTime(t time.Time) float64 { return float64(t.UnixMicro()) / 1e6 }

// authentic reports whether raw is the canonical encoding of an entry whose
// MAC verifies under key, so a change to any stored byte is caught, even one
// the decoder would ignore.
func authentic(key, raw []byte, e *Entry) bool {
	if !hmac.Equal(e.MAC, computeMAC(key, e)) {
		return false
	}
	canon, err := e.Marshal()
	return err == nil && bytes.Equal(canon, raw)
}
