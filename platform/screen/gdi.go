package screen

import (
	"fmt"
	"image"
)

// fromBGRA copies a 32-bit top-down bitmap in GDI's DIB layout (blue,
// green, red, then a byte that is not alpha) into a new opaque RGBA image,
// which the caller owns: the bitmap itself is reused for the next grab.
func fromBGRA(src []byte, w, h, stride int) (*image.RGBA, error) {
	if w <= 0 || h <= 0 || stride < w*4 || len(src) < stride*(h-1)+w*4 {
		return nil, fmt.Errorf("bitmap of %d bytes is too small for %dx%d pixels at a stride of %d", len(src), w, h, stride)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if stride == w*4 {
		convert(img.Pix, src[:w*h*4], bgrx)
		return img, nil
	}
	for y := range h {
		convert(img.Pix[y*img.Stride:y*img.Stride+w*4], src[y*stride:y*stride+w*4], bgrx)
	}
	return img, nil
}
