package frames

import (
	"image"
	"image/color"
	"image/draw"
	"math/rand/v2"
	"testing"

	"github.com/reprise-dev/reprise/platform/screen"
)

// desktopFrame draws something like a working desktop: a wallpaper
// gradient, two windows with title bars, and rows of dark "text" glyphs,
// which are what makes a real screenshot cost more to encode than a flat one.
func desktopFrame(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetRGBA(x, y, color.RGBA{uint8(40 + y*60/h), uint8(70 + x*40/w), 120, 0xff})
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, win := range []image.Rectangle{image.Rect(60, 40, 900, 700), image.Rect(700, 200, 1240, 760)} {
		draw.Draw(img, win, image.NewUniform(color.RGBA{0xf4, 0xf4, 0xf4, 0xff}), image.Point{}, draw.Src)
		bar := image.Rect(win.Min.X, win.Min.Y, win.Max.X, win.Min.Y+28)
		draw.Draw(img, bar, image.NewUniform(color.RGBA{0x30, 0x50, 0x90, 0xff}), image.Point{}, draw.Src)
		for y := win.Min.Y + 44; y+12 < win.Max.Y-10; y += 20 {
			for x := win.Min.X + 16; x+7 < win.Max.X-16-rng.IntN(200); x += 8 {
				for range 14 { // a glyph: scattered dark, anti-aliased dots
					gx, gy := x+rng.IntN(7), y+rng.IntN(12)
					v := uint8(rng.IntN(160))
					img.SetRGBA(gx, gy, color.RGBA{v, v, v, 0xff})
				}
			}
		}
	}
	return img
}

func BenchmarkEncode(b *testing.B) {
	img := desktopFrame(1280, 800)
	var size int
	for b.Loop() {
		p, err := screen.Encode(img)
		if err != nil {
			b.Fatal(err)
		}
		size = len(p)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/frame")
	b.ReportMetric(float64(size), "bytes/frame")
}

func BenchmarkScale4K(b *testing.B) {
	img := desktopFrame(3840, 2160)
	for b.Loop() {
		scaleDown(img, 1920)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/frame")
}

func BenchmarkHash(b *testing.B) {
	img := desktopFrame(1280, 800)
	r := NewRing(&changing{}, RingOptions{})
	b.SetBytes(int64(len(img.Pix)))
	for b.Loop() {
		hashPixels(r.seed, img)
	}
}
