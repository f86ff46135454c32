package events

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// maxMsgpackDepth bounds how deeply msgpack arrays and maps may nest. The
// schema nests six deep (recording, steps, step, enrichment, selectors,
// selector); the margin is for fields a newer writer may add.
const maxMsgpackDepth = 32

var errTruncated = errors.New("input ends inside a value")

// checkMsgpack walks the one msgpack value b must hold, without decoding it,
// and refuses what the decoder would trust too far. The msgpack library sizes
// a slice by the length its header claims before it reads a single element
// (so five bytes could make it allocate gigabytes), and it skips unknown
// fields recursively (so deep nesting could exhaust the stack). Here every
// array, map, string, binary and extension must fit in the bytes that are
// left, nesting is bounded, and nothing may follow the value. A slice the
// decoder then allocates holds at most one element per input byte.
func checkMsgpack(b []byte) error {
	// open holds, per open container, how many values it still expects;
	// the bottom entry is the top-level value itself.
	open := make([]uint64, 1, 8)
	open[0] = 1
	i := 0
	for len(open) > 0 {
		top := len(open) - 1
		if open[top] == 0 {
			open = open[:top]
			continue
		}
		open[top]--
		if i >= len(b) {
			return errTruncated
		}
		c := b[i]
		i++
		var values, size uint64 // values a container holds; bytes a scalar holds
		var err error
		switch {
		case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3: // fixint, nil, bool
		case c <= 0x8f: // fixmap
			values = 2 * uint64(c&0x0f)
		case c <= 0x9f: // fixarray
			values = uint64(c & 0x0f)
		case c <= 0xbf: // fixstr
			size = uint64(c & 0x1f)
		case c == 0xc1:
			return fmt.Errorf("byte %d: 0xc1 is never used in msgpack", i-1)
		case c == 0xc4 || c == 0xd9: // bin8, str8
			size, i, err = length(b, i, 1)
		case c == 0xc5 || c == 0xda: // bin16, str16
			size, i, err = length(b, i, 2)
		case c == 0xc6 || c == 0xdb: // bin32, str32
			size, i, err = length(b, i, 4)
		case c >= 0xc7 && c <= 0xc9: // ext8, ext16, ext32: length, then a type byte
			size, i, err = length(b, i, 1<<(c-0xc7))
			size++
		case c >= 0xca && c <= 0xd3: // float32, float64, uint8..64, int8..64
			size = [...]uint64{4, 8, 1, 2, 4, 8, 1, 2, 4, 8}[c-0xca]
		case c >= 0xd4 && c <= 0xd8: // fixext1..16, after a type byte
			size = 1 + 1<<(c-0xd4)
		case c == 0xdc || c == 0xdd: // array16, array32
			values, i, err = length(b, i, 2<<(c-0xdc))
		case c == 0xde || c == 0xdf: // map16, map32
			values, i, err = length(b, i, 2<<(c-0xde))
			values *= 2
		}
		if err != nil {
			return err
		}
		left := uint64(len(b) - i)
		if size > left {
			return fmt.Errorf("byte %d: a value claims %d bytes; %d are left", i, size, left)
		}
		i += int(size)
		if values > left {
			return fmt.Errorf("byte %d: a container claims %d values; %d bytes are left", i, values, left)
		}
		if values > 0 {
			if len(open) > maxMsgpackDepth {
				return fmt.Errorf("byte %d: nested more than %d deep", i, maxMsgpackDepth)
			}
			open = append(open, values)
		}
	}
	if i != len(b) {
		return fmt.Errorf("%d trailing bytes after the value", len(b)-i)
	}
	return nil
}

// length reads a big-endian length of w bytes at b[i:].
func length(b []byte, i, w int) (uint64, int, error) {
	if len(b)-i < w {
		return 0, i, errTruncated
	}
	switch w {
	case 1:
		return uint64(b[i]), i + 1, nil
	case 2:
		return uint64(binary.BigEndian.Uint16(b[i:])), i + 2, nil
	default:
		return uint64(binary.BigEndian.Uint32(b[i:])), i + 4, nil
	}
}
