package desktop

import (
	"bytes"
	"fmt"
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

// findPatch looks for the recorded square around pt on the screen now, for
// a window that moved since the recording: it returns where that square's
// centre is now, when one place matches clearly better than any other.
// The search runs on both images shrunk four times, then refines.
func findPatch(recorded, now image.Image, pt image.Point) (image.Point, bool) {
	if m := matchPatch(recorded, now, pt); m.Clear() {
		return m.At, true
	}
	return image.Point{}, false
}

// patchMatch is the best place of a patch search, with its mean difference
// (0 to 1) and the best elsewhere's, the runner-up.
type patchMatch struct {
	At           image.Point
	Best, Second float64
}

// Clear says whether the best place is close, and several times closer
// than the next place. Flat areas (a plain background) match everywhere
// alike and are refused.
func (m patchMatch) Clear() bool {
	return m.Best <= 0.02 && m.Second >= 3*m.Best && m.Second-m.Best >= 0.005
}

func (m patchMatch) String() string {
	return fmt.Sprintf("best at %v (mean difference %.4f), next best elsewhere %.4f", m.At, m.Best, m.Second)
}

// matchPatch is findPatch's search, whatever its result.
func matchPatch(recorded, now image.Image, pt image.Point) patchMatch {
	const k = 4
	scale := float64(recorded.Bounds().Dx()) / float64(now.Bounds().Dx())
	rs, ns := shrink(recorded, k, 1/scale), shrink(now, k, 1)
	// A wide strip, not the small square: the field's label and
	// neighbours tell two identical empty fields apart.
	rx, ry := 3*lookRadius/k, lookRadius/k
	c := image.Pt(pt.X/k, pt.Y/k)
	patch := image.Rect(c.X-rx, c.Y-ry, c.X+rx, c.Y+ry).Intersect(rs.Bounds())
	if patch.Dx() < rx || patch.Dy() < ry {
		return patchMatch{Best: 1, Second: 1}
	}
	off := c.Sub(patch.Min) // the point within the patch
	best, second := 1.0, 1.0
	var at image.Point
	for y := 0; y+patch.Dy() <= ns.Bounds().Dy(); y++ {
		for x := 0; x+patch.Dx() <= ns.Bounds().Dx(); x++ {
			d := sad(rs, ns, patch, image.Pt(x, y))
			p := image.Pt(x, y).Add(off)
			switch {
			case d < best:
				if abs(p.X-at.X) > ry || abs(p.Y-at.Y) > ry {
					second = best
				}
				best, at = d, p
			case d < second && (abs(p.X-at.X) > ry || abs(p.Y-at.Y) > ry):
				second = d
			}
		}
	}
	return patchMatch{At: image.Pt(at.X*k, at.Y*k), Best: best, Second: second}
}

// shrink averages k x k blocks, reading img at 1/zoom of its coordinates
// (for a frame recorded scaled).
func shrink(img image.Image, k int, zoom float64) *image.Gray {
	b := img.Bounds()
	w, h := int(float64(b.Dx())*zoom)/k, int(float64(b.Dy())*zoom)/k
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var sum uint32
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					px := b.Min.X + int(float64(x*k+dx)/zoom)
					py := b.Min.Y + int(float64(y*k+dy)/zoom)
					r, g, bb, _ := img.At(px, py).RGBA()
					sum += (r + g + bb) / 3 >> 8
				}
			}
			out.Pix[y*out.Stride+x] = uint8(sum / uint32(k*k))
		}
	}
	return out
}

// sad is the mean absolute difference (0 to 1) between the patch of a and
// the same-sized square of b at off.
func sad(a, b *image.Gray, patch image.Rectangle, off image.Point) float64 {
	var sum int
	for y := 0; y < patch.Dy(); y++ {
		ra := a.Pix[(patch.Min.Y+y)*a.Stride+patch.Min.X:]
		rb := b.Pix[(off.Y+y)*b.Stride+off.X:]
		for x := 0; x < patch.Dx(); x++ {
			sum += abs(int(ra[x]) - int(rb[x]))
		}
	}
	return float64(sum) / float64(patch.Dx()*patch.Dy()*255)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
