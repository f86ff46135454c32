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

func TestFindPatch(t *testing.T) {
	grey := color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	// A "window" with some structure, recorded at (100,100), now at (400,300).
	draw := func(at image.Point) *image.RGBA {
		img := filled(1280, 800, grey)
		for i := 0; i < 6; i++ {
			c := color.RGBA{uint8(40 * i), 0x30, uint8(200 - 30*i), 0xff}
			r := image.Rect(at.X+i*20, at.Y+(i%3)*15, at.X+i*20+15, at.Y+(i%3)*15+40)
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					img.Set(x, y, c)
				}
			}
		}
		return img
	}
	recorded, now := draw(image.Pt(100, 100)), draw(image.Pt(400, 300))
	got, ok := findPatch(recorded, now, image.Pt(150, 125))
	if !ok || abs(got.X-450) > 4 || abs(got.Y-325) > 4 {
		t.Fatalf("findPatch = %v, %v; want about (450,325), where the window moved", got, ok)
	}
	if _, ok := findPatch(recorded, filled(1280, 800, grey), image.Pt(150, 125)); ok {
		t.Error("a screen without the window matched")
	}
	if _, ok := findPatch(filled(1280, 800, grey), now, image.Pt(600, 600)); ok {
		t.Error("a flat patch matched: it matches everywhere and must be refused")
	}
}
