package screen

import (
	"fmt"
	"image"
)

// CGBitmapInfo bits.
const (
	alphaInfoMask   = 0x1f
	byteOrderMask   = 0x7000
	byteOrder32Le   = 2 << 12
	alphaNone       = 0
	alphaPremulLast = 1
	alphaPremulFrst = 2
	alphaLast       = 3
	alphaFirst      = 4
	alphaSkipLast   = 5
	alphaSkipFirst  = 6
)

// ToRGBA converts a 32-bit CGImage's pixels (w x h, stride bytes a row, in
// the layout bitmapInfo describes) to an RGBA image. Screen grabs are
// usually premultiplied-first, 32-bit little endian: B, G, R, A in memory.
// Premultiplied alpha is kept, as image.RGBA is premultiplied too.
func ToRGBA(src []byte, w, h, stride, bitsPerPixel int, bitmapInfo uint32) (*image.RGBA, error) {
	if bitsPerPixel != 32 {
		return nil, fmt.Errorf("quartz: %d bits a pixel, want 32", bitsPerPixel)
	}
	if w <= 0 || h <= 0 || stride < 4*w || len(src) < stride*(h-1)+4*w {
		return nil, fmt.Errorf("quartz: %d bytes for a %dx%d image with stride %d", len(src), w, h, stride)
	}
	alpha := bitmapInfo & alphaInfoMask
	first := alpha == alphaPremulFrst || alpha == alphaFirst || alpha == alphaSkipFirst
	opaque := alpha == alphaNone || alpha == alphaSkipLast || alpha == alphaSkipFirst
	// Offsets of R, G, B, A within a pixel, in memory order.
	var r, g, b, a int
	switch little := bitmapInfo&byteOrderMask == byteOrder32Le; {
	case little && first: // ARGB word, little endian: B G R A
		b, g, r, a = 0, 1, 2, 3
	case little: // RGBA word, little endian: A B G R
		a, b, g, r = 0, 1, 2, 3
	case first: // A R G B
		a, r, g, b = 0, 1, 2, 3
	default: // R G B A
		r, g, b, a = 0, 1, 2, 3
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		row := src[y*stride : y*stride+4*w]
		dst := img.Pix[y*img.Stride : y*img.Stride+4*w]
		for x := 0; x < 4*w; x += 4 {
			dst[x], dst[x+1], dst[x+2] = row[x+r], row[x+g], row[x+b]
			if opaque {
				dst[x+3] = 0xff
			} else {
				dst[x+3] = row[x+a]
			}
		}
	}
	return img, nil
}
