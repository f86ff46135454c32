package audit

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/reprise-dev/reprise/events"

	"github.com/reprise-dev/reprise/internal/mpack"
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
	b = mpack.Str(b, "seq")
	b = binary.BigEndian.AppendUint64(append(b, 0xcf), e.Seq)
	b = mpack.Str(b, "time")
	b = binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(e.Time))
	b = mpack.Str(b, "kind")
	b = mpack.Str(b, e.Kind)
	if len(e.Fields) > 0 {
		b = mpack.Str(b, "fields")
		b = append(b, 0x80|byte(len(e.Fields)))
		keys := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			b = mpack.Str(mpack.Str(b, k), e.Fields[k])
		}
	}
	if len(e.Prev) > 0 {
		b = mpack.Bin(mpack.Str(b, "prev"), e.Prev)
	}
	b = mpack.Bin(mpack.Str(b, "mac"), e.MAC)
	return b, nil
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
