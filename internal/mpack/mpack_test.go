package mpack

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// TestSameBytesAsTheLibrary holds each appender to the msgpack library's own
// encoding, at every size boundary.
func TestSameBytesAsTheLibrary(t *testing.T) {
	lib := func(v any) []byte {
		b, err := msgpack.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, n := range []int{0, 31, 32, 255, 256, 65535, 65536} {
		s := strings.Repeat("x", n)
		if got, want := Str(nil, s), lib(s); !bytes.Equal(got, want) {
			t.Errorf("Str(%d bytes) header %x; want %x", n, got[:min(5, len(got))], want[:min(5, len(want))])
		}
		p := []byte(s)
		if got, want := Bin(nil, p), lib(p); !bytes.Equal(got, want) {
			t.Errorf("Bin(%d bytes) header %x; want %x", n, got[:min(5, len(got))], want[:min(5, len(want))])
		}
	}
	for _, n := range []int64{0, 127, 128, 255, 256, 65535, 65536, math.MaxUint32, math.MaxUint32 + 1, -1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1} {
		if got, want := Int(nil, n), lib(int(n)); !bytes.Equal(got, want) { // a Go int, as in Step.Cursor
			t.Errorf("Int(%d) = %x; want %x", n, got, want)
		}
	}
	for _, n := range []int{0, 15, 16, 65535, 65536} {
		want := lib(make([]bool, n))
		got := ArrayLen(nil, n)
		if !bytes.Equal(got, want[:len(got)]) {
			t.Errorf("ArrayLen(%d) = %x; want %x", n, got, want[:len(got)])
		}
	}
	if !bytes.Equal(Bool(nil, true), lib(true)) || !bytes.Equal(Float64(nil, 1.5), lib(1.5)) || !bytes.Equal(StrPtr(nil, nil), lib(nil)) {
		t.Error("Bool, Float64 or StrPtr differs from the library")
	}
}
