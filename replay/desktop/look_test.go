package desktop

import (
	"image"
	"image/color"
	"image/draw"
	"testing"
)

func filled(w, h int, c color.Color) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{c}, image.Point{}, draw.Src)
	return img
}

func TestLookDiff(t *testing.T) {
	grey := color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	screen := filled(1280, 800, grey)
	same := filled(1280, 800, grey)
	draw.Draw(same, image.Rect(100, 100, 102, 130), &image.Uniform{color.Black}, image.Point{}, draw.Src) // a caret
	other := filled(1280, 800, grey)
	draw.Draw(other, image.Rect(50, 50, 400, 400), &image.Uniform{color.RGBA{0x20, 0x40, 0x90, 0xff}}, image.Point{}, draw.Src) // another window
	half := filled(640, 400, grey)                                                                                              // recorded scaled down
	for _, tc := range []struct {
		name     string
		recorded image.Image
		pt       image.Point
		same     bool
	}{
		{"unchanged but for a caret", same, image.Pt(110, 110), true},
		{"another window over the point", other, image.Pt(110, 110), false},
		{"recorded at half size", half, image.Pt(600, 300), true},
		{"the point is off the screen", same, image.Pt(5000, 10), false},
	} {
		if got := lookDiff(tc.recorded, screen, tc.pt) <= maxLookDiff; got != tc.same {
			t.Errorf("%s: looks the same = %v (diff %.3f); want %v", tc.name, got, lookDiff(tc.recorded, screen, tc.pt), tc.same)
		}
	}
}

func TestShows(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		ok         bool
	}{
		{"First Name  Grace\nEmail", "Grace", true},
		{"FIRST NAME GRACE", "grace", true},
		{"name: ada@example.org", "ada@example.org", true},
		{"Gr ace", "Grace", true},
		{"Email", "Grace", false},
	} {
		if got := shows(tc.text, tc.want); got != tc.ok {
			t.Errorf("shows(%q, %q) = %v", tc.text, tc.want, got)
		}
	}
}
