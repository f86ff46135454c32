package frames

import "image"

// scaleDown returns img itself when its long edge is at most maxEdge, and
// otherwise a copy scaled to that long edge with a box filter: each output
// pixel averages the input pixels it covers, which keeps text legible when
// a 4K screen is halved, unlike nearest-neighbour sampling.
func scaleDown(img *image.RGBA, maxEdge int) *image.RGBA {
	sw, sh := img.Rect.Dx(), img.Rect.Dy()
	dw, dh := scaledSize(sw, sh, maxEdge)
	if dw == sw && dh == sh {
		return img
	}
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))

	// Column spans are the same for every row: work them out once.
	x0s := make([]int, dw+1)
	for x := range x0s {
		x0s[x] = x * sw / dw
	}
	var sum [4]uint32
	for y := 0; y < dh; y++ {
		y0, y1 := y*sh/dh, (y+1)*sh/dh
		row := dst.Pix[y*dst.Stride:]
		for x := 0; x < dw; x++ {
			x0, x1 := x0s[x], x0s[x+1]
			sum = [4]uint32{}
			for sy := y0; sy < y1; sy++ {
				src := img.Pix[sy*img.Stride+x0*4 : sy*img.Stride+x1*4]
				for i := 0; i < len(src); i += 4 {
					sum[0] += uint32(src[i])
					sum[1] += uint32(src[i+1])
					sum[2] += uint32(src[i+2])
					sum[3] += uint32(src[i+3])
				}
			}
			n := uint32((x1 - x0) * (y1 - y0))
			p := row[x*4 : x*4+4]
			p[0] = uint8((sum[0] + n/2) / n)
			p[1] = uint8((sum[1] + n/2) / n)
			p[2] = uint8((sum[2] + n/2) / n)
			p[3] = uint8((sum[3] + n/2) / n)
		}
	}
	return dst
}

// scaledSize is w x h with its long edge capped at maxEdge, aspect kept.
func scaledSize(w, h, maxEdge int) (int, int) {
	long := max(w, h)
	if long <= maxEdge || w <= 0 || h <= 0 {
		return w, h
	}
	return max(1, (w*maxEdge+long/2)/long), max(1, (h*maxEdge+long/2)/long)
}
