package screen

import (
	"testing"
)

func TestToRGBA(t *testing.T) {
	// Two pixels, stride 12 (padding), premultiplied-first little endian:
	// B G R A in memory.
	src := []byte{1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0}
	img, err := ToRGBA(src, 2, 1, 12, 32, alphaPremulFrst|byteOrder32Le)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Pix, []byte{3, 2, 1, 4, 7, 6, 5, 8}; string(got) != string(want) {
		t.Errorf("BGRA: %v, want %v", got, want)
	}
	img, _ = ToRGBA(src, 2, 1, 12, 32, alphaSkipLast) // R G B x, big endian
	if got, want := img.Pix, []byte{1, 2, 3, 255, 5, 6, 7, 255}; string(got) != string(want) {
		t.Errorf("RGBX: %v, want %v", got, want)
	}
	img, _ = ToRGBA(src, 2, 1, 12, 32, alphaFirst) // A R G B
	if got, want := img.Pix, []byte{2, 3, 4, 1, 6, 7, 8, 5}; string(got) != string(want) {
		t.Errorf("ARGB: %v, want %v", got, want)
	}
	if _, err := ToRGBA(src, 4, 1, 12, 32, 0); err == nil {
		t.Error("short data accepted")
	}
	if _, err := ToRGBA(src, 2, 1, 12, 24, 0); err == nil {
		t.Error("24-bit accepted")
	}
}
