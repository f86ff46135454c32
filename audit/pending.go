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
	"maps"
	"slices"
	"time"
)

// ErrQueued is wrapped by an Append that could not write its entry into
// the chain now but kept it, durably, to write before any later one.
var ErrQueued = errors.New("the audit entry is kept to be written later")

// ErrPendingForged is returned by DecodePending when the file's tag does not
// verify under the audit key: someone without the key wrote it, and its
// entries must not be written into the chain under the key.
var ErrPendingForged = errors.New("the kept audit entries' tag does not verify under the audit key")

// ErrPendingMalformed is wrapped by DecodePending for bytes that are not a
// file of kept entries.
var ErrPendingMalformed = errors.New("malformed file of kept audit entries")

// MaxPending bounds the entries kept to write later, so a stream that is
// gone for good cannot fill the disk; entries beyond it are lost, counted
// and reported by Verify.
const MaxPending = 10_000

// maxPendingFile bounds what DecodePending reads: MaxPending entries of the
// largest allowed shape would not fit, so a file that size is not one the
// daemon wrote.
const maxPendingFile = 16 << 20

// Reasons an audit.pending_lost entry gives.
const (
	PendingMissing    = "missing"     // the file is gone, but the high-water mark counts entries in it
	PendingRolledBack = "rolled_back" // the file lacks entries the mark counts: an older copy
	PendingForged     = "forged"      // its tag does not verify
	PendingUnreadable = "unreadable"  // not a file of kept entries at all
)

// Pending is an entry the daemon could not append when it happened (the
// store full, the stream unavailable), kept to be written at the next
// chance: the kind and fields Append was given, content-free as every
// entry is, and when. It gets its seq, prev and MAC when it is written.
type Pending struct {
	// N numbers every Pending the daemon ever kept, from 1, with no gaps;
	// HighWater.Queued and Written count in it.
	N uint64 `json:"n"`
	// Micros is when it happened, in microseconds since the Unix epoch:
	// the entry carries this time, not the time it was written.
	Micros int64             `json:"t"`
	Kind   string            `json:"kind"`
	Fields map[string]string `json:"fields,omitempty"`
}

// NewPending returns the Pending numbered n for an entry of kind at t,
// refused like Append refuses it.
func NewPending(n uint64, t time.Time, kind string, fields map[string]string) (Pending, error) {
	if err := CheckFields(kind, fields); err != nil {
		return Pending{}, fmt.Errorf("audit %s: %w", kind, err)
	}
	p := Pending{N: n, Micros: t.UnixMicro(), Kind: kind}
	if len(fields) > 0 {
		p.Fields = maps.Clone(fields)
	}
	return p, nil
}

// Time returns when p happened.
func (p Pending) Time() time.Time { return time.UnixMicro(p.Micros) }

// Is reports whether e is p written into the chain: the same kind, fields
// and time. The daemon checks the chain's last entry against the first kept
// one after a restart, so an entry written just before a crash is not
// written twice.
func (p Pending) Is(e *Entry) bool {
	return e != nil && e.Kind == p.Kind && e.Time == entryTime(p.Time()) && maps.Equal(e.Fields, p.Fields)
}

type pendingFile struct {
	Entries []Pending `json:"entries"`
	Tag     []byte    `json:"tag"`
}

// EncodePending returns the file holding ps, oldest first, tagged under
// key. The numbers of ps must follow each other.
func EncodePending(key []byte, ps []Pending) ([]byte, error) {
	if err := checkPending(ps); err != nil {
		return nil, err
	}
	if ps == nil {
		ps = []Pending{}
	}
	return json.Marshal(pendingFile{Entries: ps, Tag: pendingTag(key, ps)})
}

// DecodePending reads a file EncodePending wrote: an error wrapping
// ErrPendingMalformed for anything else, ErrPendingForged when its tag is
// not the key's.
func DecodePending(key, b []byte) ([]Pending, error) {
	if len(b) > maxPendingFile {
		return nil, fmt.Errorf("%w: %d bytes", ErrPendingMalformed, len(b))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f pendingFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrPendingMalformed, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%w: trailing data", ErrPendingMalformed)
	}
	if err := checkPending(f.Entries); err != nil {
		return nil, err
	}
	if !hmac.Equal(f.Tag, pendingTag(key, f.Entries)) {
		return nil, ErrPendingForged
	}
	return f.Entries, nil
}

// checkPending holds ps to what the daemon writes: consecutive numbers from
// 1 up, at most MaxPending, each entry allowed as Append allows it.
func checkPending(ps []Pending) error {
	if len(ps) > MaxPending {
		return fmt.Errorf("%w: %d entries; at most %d are kept", ErrPendingMalformed, len(ps), MaxPending)
	}
	for i, p := range ps {
		switch {
		case p.N == 0:
			return fmt.Errorf("%w: entry %d is numbered 0", ErrPendingMalformed, i)
		case i > 0 && p.N != ps[i-1].N+1:
			return fmt.Errorf("%w: entry %d follows %d", ErrPendingMalformed, p.N, ps[i-1].N)
		case p.Micros < 0:
			return fmt.Errorf("%w: entry %d: time %d is not a time", ErrPendingMalformed, p.N, p.Micros)
		}
		if err := CheckFields(p.Kind, p.Fields); err != nil {
			return fmt.Errorf("%w: entry %d: %w", ErrPendingMalformed, p.N, err)
		}
	}
	return nil
}

// pendingTag covers every entry's number, time, kind and fields, each
// length-prefixed, under a domain of its own: no chain entry's MAC or
// checkpoint's tag is ever one.
func pendingTag(key []byte, ps []Pending) []byte {
	b := []byte("reprise audit pending v1\x00")
	b = binary.AppendUvarint(b, uint64(len(ps)))
	for _, p := range ps {
		b = binary.BigEndian.AppendUint64(b, p.N)
		b = binary.BigEndian.AppendUint64(b, uint64(p.Micros))
		b = appendBytes(b, []byte(p.Kind))
		keys := slices.Sorted(maps.Keys(p.Fields))
		b = binary.AppendUvarint(b, uint64(len(keys)))
		for _, k := range keys {
			b = appendBytes(appendBytes(b, []byte(k)), []byte(p.Fields[k]))
		}
	}
	m := hmac.New(sha256.New, key)
	m.Write(b)
	return m.Sum(nil)
}
