package audit

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// ErrHighWaterForged is returned by OpenHighWater when the mark's tag does
// not verify under the audit key for the item it was read from.
var ErrHighWaterForged = errors.New("the audit high-water mark's tag does not verify under the audit key")

// ErrHighWaterMalformed is wrapped by OpenHighWater for bytes that are not a
// high-water mark at all.
var ErrHighWaterMalformed = errors.New("malformed audit high-water mark")

// maxHighWaterSize bounds what OpenHighWater reads; a mark is about 200 bytes.
const maxHighWaterSize = 4096

// HighWater is the most the audit log has ever held, kept where whoever can
// replace the log's files with an older copy cannot also roll it back (the
// OS keychain): the chain's last entry, and how far the numbering of the
// entries kept to write later (Pending) has gone.
//
// A checkpoint file restored from a backup is genuine, tagged and older; a
// chain that ends before Head is rolled back whatever that file says. The
// daemon raises the mark with every entry it writes and never lowers it,
// except to the entry that records a loss in the chain itself.
type HighWater struct {
	// Head is the chain's last entry the daemon wrote.
	Head Checkpoint
	// Queued is the number of the last Pending the daemon ever kept.
	Queued uint64
	// Written is the number of the last Pending written into the chain;
	// a Pending numbered at or below it is never written again.
	Written uint64
}

type sealedHighWater struct {
	Seq     uint64 `json:"seq"`
	MAC     []byte `json:"mac,omitempty"`
	Queued  uint64 `json:"queued,omitempty"`
	Written uint64 `json:"written,omitempty"`
	Tag     []byte `json:"tag"`
}

// SealHighWater encodes h for the key store, tagged under key and bound to
// name, the item it is kept under: a mark copied from another data dir's
// item does not open.
func SealHighWater(key []byte, name string, h HighWater) []byte {
	b, _ := json.Marshal(sealedHighWater{Seq: h.Head.Seq, MAC: h.Head.MAC, Queued: h.Queued, Written: h.Written,
		Tag: highWaterTag(key, name, h)})
	return b
}

// OpenHighWater decodes a mark SealHighWater made for name: an error
// wrapping ErrHighWaterMalformed for bytes that are not one, and
// ErrHighWaterForged when its tag is not the key's.
func OpenHighWater(key []byte, name string, b []byte) (HighWater, error) {
	if len(b) > maxHighWaterSize {
		return HighWater{}, fmt.Errorf("%w: %d bytes", ErrHighWaterMalformed, len(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var s sealedHighWater
	if err := dec.Decode(&s); err != nil {
		return HighWater{}, fmt.Errorf("%w: %w", ErrHighWaterMalformed, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return HighWater{}, fmt.Errorf("%w: trailing data", ErrHighWaterMalformed)
	}
	switch {
	case s.Seq == 0 && len(s.MAC) != 0, s.Seq > 0 && len(s.MAC) != MACSize:
		return HighWater{}, fmt.Errorf("%w: entry %d with a %d-byte mac", ErrHighWaterMalformed, s.Seq, len(s.MAC))
	case s.Written > s.Queued:
		return HighWater{}, fmt.Errorf("%w: %d kept entries written of %d", ErrHighWaterMalformed, s.Written, s.Queued)
	}
	h := HighWater{Head: Checkpoint{Seq: s.Seq, MAC: s.MAC}, Queued: s.Queued, Written: s.Written}
	if !hmac.Equal(s.Tag, highWaterTag(key, name, h)) {
		return HighWater{}, ErrHighWaterForged
	}
	return h, nil
}

func highWaterTag(key []byte, name string, h HighWater) []byte {
	m := hmac.New(sha256.New, key)
	b := []byte("reprise audit high-water v1\x00")
	b = appendBytes(b, []byte(name))
	b = binary.BigEndian.AppendUint64(b, h.Head.Seq)
	b = appendBytes(b, h.Head.MAC)
	b = binary.BigEndian.AppendUint64(b, h.Queued)
	b = binary.BigEndian.AppendUint64(b, h.Written)
	m.Write(b)
	return m.Sum(nil)
}
