package screen

import (
	"bytes"
	"testing"
)

func TestFromBGRA(t *testing.T) {
	// Two rows of two pixels in GDI's layout: blue, green, red, and a
	// fourth byte that is 0 (BitBlt leaves it so) or junk, never alpha.
	px := func(r, g, b, x byte) []byte { return []byte{b, g, r, x} }
	row0 := append(px(0x11, 0x22, 0x33, 0), px(0xff, 0, 0, 0x7f)...)
	row1 := append(px(0, 0xff, 0, 0xff), px(1, 2, 3, 0)...)
	want := []byte{
		0x11, 0x22, 0x33, 0xff, 0xff, 0, 0, 0xff,
		0, 0xff, 0, 0xff, 1, 2, 3, 0xff,
	}
	tests := []struct {
		name   string
		src    []byte
		stride int
	}{
		{"packed", append(append([]byte{}, row0...), row1...), 8},
		{"padded rows", append(append(append([]byte{}, row0...), 9, 9, 9, 9), row1...), 12},
	}
	for _, tt := range tests {
		img, err := fromBGRA(tt.src, 2, 2, tt.stride)
		if err != nil {
			t.Fatalf("fromBGRA(%s) = %v", tt.name, err)
		}
		if img.Rect.Dx() != 2 || img.Rect.Dy() != 2 || !bytes.Equal(img.Pix, want) {
			t.Errorf("fromBGRA(%s) = %v % x; want 2x2 % x", tt.name, img.Rect, img.Pix, want)
		}
	}
}

func TestFromBGRARejectsShortBitmaps(t *testing.T) {
	tests := []struct {
		name            string
		n, w, h, stride int
	}{
		{"short", 15, 2, 2, 8},
		{"stride below width", 16, 2, 2, 4},
		{"no width", 16, 0, 2, 8},
		{"no height", 16, 2, 0, 8},
	}
	for _, tt := range tests {
		if img, err := fromBGRA(make([]byte, tt.n), tt.w, tt.h, tt.stride); err == nil {
			t.Errorf("fromBGRA(%s) = %v; want an error", tt.name, img.Rect)
		}
	}
}
