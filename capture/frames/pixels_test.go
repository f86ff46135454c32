package frames

import (
	"image"
	"image/color"
	"testing"
)

func TestScaledSize(t *testing.T) {
	tests := []struct{ w, h, wantW, wantH int }{
		{3840, 2160, 1920, 1080},
		{2160, 3840, 1080, 1920},
		{4000, 1000, 1920, 480},
		{2560, 1600, 1920, 1200},
		{1920, 1200, 1920, 1200},
		{1280, 800, 1280, 800},
		{3841, 1, 1920, 1}, // never a zero edge
	}
	for _, tt := range tests {
		if w, h := scaledSize(tt.w, tt.h, 1920); w != tt.wantW || h != tt.wantH {
			t.Errorf("scaledSize(%d, %d, 1920) = %d, %d; want %d, %d", tt.w, tt.h, w, h, tt.wantW, tt.wantH)
		}
	}
}

func TestScaleDownAverages(t *testing.T) {
	// Left half red, right half a 1-pixel black/white checker: halved, the
	// left stays red and the checker averages to grey.
	src := image.NewRGBA(image.Rect(0, 0, 400, 200))
	for y := range 200 {
		for x := range 400 {
			c := color.RGBA{0xff, 0, 0, 0xff}
			if x >= 200 {
				v := uint8(0xff * ((x + y) % 2))
				c = color.RGBA{v, v, v, 0xff}
			}
			src.SetRGBA(x, y, c)
		}
	}
	dst := scaleDown(src, 200)
	if got := dst.Rect.Size(); got != image.Pt(200, 100) {
		t.Fatalf("scaleDown(400x200, 200) is %v; want 200x100", got)
	}
	if got := dst.RGBAAt(50, 50); got != (color.RGBA{0xff, 0, 0, 0xff}) {
		t.Errorf("scaled red half = %v; want red", got)
	}
	if got := dst.RGBAAt(150, 50); got != (color.RGBA{0x80, 0x80, 0x80, 0xff}) {
		t.Errorf("scaled checker = %v; want grey 0x80", got)
	}
}

func TestHashIgnoresStridePadding(t *testing.T) {
	r := NewRing(&changing{}, RingOptions{})
	whole := solid(10, 10, color.RGBA{1, 2, 3, 0xff})
	big := solid(20, 10, color.RGBA{1, 2, 3, 0xff})
	sub := big.SubImage(image.Rect(5, 0, 15, 10)).(*image.RGBA)
	for i := range big.Pix[:4] {
		big.Pix[i] = 9 // outside sub: must not matter
	}
	if hashPixels(r.seed, whole) != hashPixels(r.seed, sub) {
		t.Error("hashPixels differs for equal pixels with a wider stride")
	}
}
