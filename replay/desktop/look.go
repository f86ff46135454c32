package desktop

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"unicode"
)

// lookRadius is half the side of the square compared around a point: about
// a button, or a field's start.
const lookRadius = 24

// maxLookDiff is the mean difference (0 to 1 per channel) above which the
// area around a point no longer looks as recorded. Generous: a field's
// caret, a hover tint and font smoothing move it a little, a different
// window or dialog moves it a lot.
const maxLookDiff = 0.20

// lookDiff compares the square around pt (in screen coordinates) in the
// recorded frame and in the screen now. A frame scaled down when recorded
// is compared at the matching place. It returns the mean difference.
func lookDiff(recorded, now image.Image, pt image.Point) float64 {
	scale := float64(recorded.Bounds().Dx()) / float64(now.Bounds().Dx())
	var sum float64
	n := 0
	for dy := -lookRadius; dy < lookRadius; dy++ {
		for dx := -lookRadius; dx < lookRadius; dx++ {
			p := pt.Add(image.Pt(dx, dy))
			q := image.Pt(int(float64(p.X)*scale), int(float64(p.Y)*scale))
			if !p.In(now.Bounds()) || !q.In(recorded.Bounds()) {
				continue
			}
			r1, g1, b1, _ := recorded.At(q.X, q.Y).RGBA()
			r2, g2, b2, _ := now.At(p.X, p.Y).RGBA()
			sum += (absDiff(r1, r2) + absDiff(g1, g2) + absDiff(b1, b2)) / (3 * 0xffff)
			n++
		}
	}
	if n == 0 {
		return 1 // the point is off one of the images
	}
	return sum / float64(n)
}

func absDiff(a, b uint32) float64 {
	if a > b {
		return float64(a - b)
	}
	return float64(b - a)
}

func decodePNG(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }

// shows reports whether OCR text shows want, ignoring case, spaces and
// punctuation OCR tends to drop or invent.
func shows(text, want string) bool {
	norm := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, s)
	}
	w := norm(want)
	return w == "" || strings.Contains(norm(text), w)
}

// enlarge copies r of img at n times its size.
func enlarge(img image.Image, r image.Rectangle, n int) *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, r.Dx()*n, r.Dy()*n))
	for y := 0; y < r.Dy()*n; y++ {
		for x := 0; x < r.Dx()*n; x++ {
			out.Set(x, y, img.At(r.Min.X+x/n, r.Min.Y+y/n))
		}
	}
	return out
}
