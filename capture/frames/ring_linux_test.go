package frames

import (
	"bytes"
	"image"
	"image/png"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/screen"
)

// TestRingOverX11 runs a ring over a real X11 grabber: the frame Before
// gives is a PNG of the whole screen, pixel for pixel what a grab shows.
func TestRingOverX11(t *testing.T) {
	d := xvfb.Start(t)
	g, err := screen.NewX11(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	r := NewRing(g, RingOptions{})
	if err := r.grabOnce(); err != nil {
		t.Fatal(err)
	}
	b, ok := r.Before(time.Now())
	if !ok {
		t.Fatal("Before(now) found no frame")
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png.Decode(Before(now)): %v", err)
	}
	want, err := g.Grab()
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != want.Bounds() || img.Bounds().Size() != image.Pt(1280, 800) {
		t.Fatalf("ring frame is %v; want the 1280x800 screen %v", img.Bounds(), want.Bounds())
	}
	for y := range want.Rect.Dy() {
		for x := range want.Rect.Dx() {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 {
				t.Fatalf("pixel (%d,%d) of the ring's frame differs from the screen's", x, y)
			}
		}
	}
}
