package audit

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/reprise-dev/reprise/events"
)

// entrySizeHint covers a typical entry: two MACs and a few short fields.
const entrySizeHint = 192

// Marshal returns e's encoding on the log: a msgpack map with the field
// names of the struct tags in a fixed order, fields sorted by name, integers
// and floats at full width. One entry has exactly one encoding, which is
// what lets Verify catch a change to any stored byte.
func (e *Entry) Marshal() ([]byte, error) {
	if len(e.Fields) > 15 {
		return nil, fmt.Errorf("encode audit entry %d: %d fields", e.Seq, len(e.Fields))
	}
	n := 4
	if len(e.Fields) > 0 {
		n++
	}
	if len(e.Prev) > 0 {
		n++
	}
	b := make([]byte, 0, entrySizeHint)
	b = append(b, 0x80|byte(n))
	b = appendStr(b, "seq")
	b = binary.BigEndian.AppendUint64(append(b, 0xcf), e.Seq)
	b = appendStr(b, "time")
	b = binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(e.Time))
	b = appendStr(b, "kind")
	b = appendStr(b, e.Kind)
	if len(e.Fields) > 0 {
		b = appendStr(b, "fields")
		b = append(b, 0x80|byte(len(e.Fields)))
		keys := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = appendStr(appendStr(b, k), e.Fields[k])
		}
	}
	if len(e.Prev) > 0 {
		b = appendBin(appendStr(b, "prev"), e.Prev)
	}
	b = appendBin(appendStr(b, "mac"), e.MAC)
	return b, nil
}

func appendStr(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n < 1<<8:
		b = append(b, 0xd9, byte(n))
	case n < 1<<16:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

func appendBin(b, p []byte) []byte {
	switch n := len(p); {
	case n < 1<<8:
		b = append(b, 0xc4, byte(n))
	case n < 1<<16:
		b = binary.BigEndian.AppendUint16(append(b, 0xc5), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xc6), uint32(n))
	}
	return append(b, p...)
}

// DecodeEntry decodes and validates one entry from its encoding on the log.
// It does not check the MAC: that needs the key and the chain.
func DecodeEntry(b []byte) (*Entry, error) {
	var e Entry
	if err := events.Decode(b, &e); err != nil {
		return nil, fmt.Errorf("decode audit entry: %w: %w", ErrMalformed, err)
	}
	if err := e.Validate(); err != nil {
		return nil, fmt.Errorf("decode audit entry: %w: %w", ErrMalformed, err)
	}
	return &e, nil
}
