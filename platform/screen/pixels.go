package screen

import (
	"encoding/binary"
	"math/bits"
)

// layout is where red, green and blue sit within a 4-byte pixel of the
// server's ZPixmap image.
type layout struct{ r, g, b int }

// bgrx is the layout of Xvfb and nearly every little-endian server.
var bgrx = layout{r: 2, g: 1, b: 0}

// byteOf returns the byte of a 4-byte pixel that holds a channel with this
// mask, given the server's image byte order.
func byteOf(mask uint32, msbFirst bool) (int, bool) {
	k := bits.TrailingZeros32(mask) / 8
	if mask == 0 || mask != 0xff<<(8*k) {
		return 0, false
	}
	if msbFirst {
		return 3 - k, true
	}
	return k, true
}

// convert turns server pixels in src into opaque RGBA in dst; they may be
// the same slice. The padding byte is never trusted as alpha.
func convert(dst, src []byte, l layout) {
	n := len(src) &^ 3
	src, dst = src[:n], dst[:n] // lets the compiler drop bounds checks
	if l == bgrx {
		for i := 0; i < n; i += 4 {
			v := binary.LittleEndian.Uint32(src[i : i+4])
			binary.LittleEndian.PutUint32(dst[i:i+4], v>>16&0xff|v&0xff00|(v&0xff)<<16|0xff000000)
		}
		return
	}
	for i := 0; i < n; i += 4 {
		r, g, b := src[i+l.r], src[i+l.g], src[i+l.b]
		dst[i], dst[i+1], dst[i+2], dst[i+3] = r, g, b, 0xff
	}
}
