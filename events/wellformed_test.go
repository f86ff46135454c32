package events

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vmihailenco/msgpack/v5"
)

// nested returns depth arrays, one inside the other, around a nil.
func nested(depth int) []byte {
	return []byte(strings.Repeat("\x91", depth) + "\xc0")
}

// ext returns an extension value of type 1 with n data bytes under header h.
func ext(h []byte, n int) []byte {
	return append(append(h, 1), bytes.Repeat([]byte{7}, n)...)
}

func TestCheckMsgpackAcceptsEveryType(t *testing.T) {
	many := make([]any, 70000)
	wide := make(map[string]int, 70000)
	for i := range many {
		many[i] = i
		wide[strconv.Itoa(i)] = i
	}
	small := make(map[int]int, 20)
	for i := range 20 {
		small[i] = i
	}
	values := map[string]any{
		"nil":          nil,
		"true":         true,
		"false":        false,
		"fixint":       5,
		"uint8":        200,
		"uint16":       60000,
		"uint32":       1 << 31,
		"uint64":       uint64(1) << 63,
		"negfixint":    -5,
		"int8":         -100,
		"int16":        -30000,
		"int32":        -1 << 30,
		"int64":        int64(-1) << 40,
		"float32":      float32(1.5),
		"float64":      2.25,
		"fixstr":       "abc",
		"str8":         strings.Repeat("s", 40),
		"str16":        strings.Repeat("s", 300),
		"str32":        strings.Repeat("s", 70000),
		"bin8":         []byte{1, 2},
		"bin16":        make([]byte, 300),
		"bin32":        make([]byte, 70000),
		"time fixext8": time.Unix(1712345678, 420000000),
		"time ext8":    time.Unix(1<<35, 1),
		"empty array":  []any{},
		"array16":      make([]any, 20),
		"array32":      many,
		"empty map":    map[string]any{},
		"map16":        small,
		"map32":        wide,
		"step":         specStep(t),
	}
	encoded := map[string][]byte{
		"fixext1": ext([]byte{0xd4}, 1), "fixext2": ext([]byte{0xd5}, 2), "fixext4": ext([]byte{0xd6}, 4),
		"fixext16": ext([]byte{0xd8}, 16), "ext8": ext([]byte{0xc7, 3}, 3),
		"ext16": ext([]byte{0xc8, 1, 0}, 256), "ext32": ext([]byte{0xc9, 0, 1, 0, 0}, 65536),
		"nested to the limit": nested(maxMsgpackDepth),
	}
	for name, v := range values {
		encoded[name] = mustMsgpack(v)
	}
	for name, b := range encoded {
		if err := checkMsgpack(b); err != nil {
			t.Errorf("checkMsgpack(%s) = %v; want nil", name, err)
			continue
		}
		if err := msgpack.NewDecoder(bytes.NewReader(b)).Skip(); err != nil {
			t.Errorf("%s is not msgpack the library reads: %v", name, err)
		}
		for _, cut := range []int{0, 1, len(b) / 2, len(b) - 1} {
			if cut < len(b) && checkMsgpack(b[:cut]) == nil {
				t.Errorf("checkMsgpack(%s cut to %d of %d bytes) = nil; want an error", name, cut, len(b))
			}
		}
		if checkMsgpack(append(b[:len(b):len(b)], 0xc0)) == nil {
			t.Errorf("checkMsgpack(%s + a trailing nil) = nil; want an error", name)
		}
	}
}

func TestCheckMsgpackRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"reserved 0xc1", []byte{0xc1}},
		{"too deep", nested(maxMsgpackDepth + 1)},
		{"fixarray of 3 with 2", []byte{0x93, 1, 2}},
		{"array16 claims more than left", []byte{0xdc, 0x01, 0x00, 1, 2, 3}},
		{"array32 claims 2^32-1", []byte{0xdd, 0xff, 0xff, 0xff, 0xff, 1}},
		{"map32 claims 2^32-1", []byte{0xdf, 0xff, 0xff, 0xff, 0xff, 1, 1}},
		{"map with a key but no value", []byte{0x81, 0xa1, 'k'}},
		{"str32 claims 4 GiB", []byte{0xdb, 0xff, 0xff, 0xff, 0xff, 'x'}},
		{"bin16 header cut", []byte{0xc5, 0x01}},
		{"ext32 claims 4 GiB", []byte{0xc9, 0xff, 0xff, 0xff, 0xff, 1, 0}},
		{"fixext16 short", ext([]byte{0xd8}, 15)},
		{"float64 short", []byte{0xcb, 0, 0, 0}},
	}
	for _, tt := range tests {
		if err := checkMsgpack(tt.in); err == nil {
			t.Errorf("checkMsgpack(%s % x) = nil; want an error", tt.name, tt.in)
		}
	}
}

// FuzzCheckMsgpack holds the walker to the library: whatever it lets
// through, the library can skip as exactly one value.
func FuzzCheckMsgpack(f *testing.F) {
	f.Add(mustMsgpack(specStep(f)))
	f.Add(nested(4))
	f.Add(ext([]byte{0xc7, 3}, 3))
	f.Fuzz(func(t *testing.T, b []byte) {
		if checkMsgpack(b) != nil {
			return
		}
		r := bytes.NewReader(b)
		if err := msgpack.NewDecoder(r).Skip(); err != nil || r.Len() != 0 {
			t.Fatalf("checkMsgpack(% x) = nil, but the library's Skip = %v with %d bytes left", b, err, r.Len())
		}
	})
}
