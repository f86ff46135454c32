// Package marks shows a person at the desktop where replay acts, just
// before it does: a frame around the element, or a square around the
// point, labelled with the skill and the action (never typed text), in a
// color chosen by the skill's name. A mark takes no input (every click
// goes through to the window under it), never takes the focus, stays
// until the next mark or two seconds, and is left out of every screenshot
// replay takes (Hidden).
//
// X11 draws it as an override-redirect window shaped to the frame with an
// empty input shape (marks_linux.go). Windows (WDA_EXCLUDEFROMCAPTURE)
// and macOS (a helper process) are not built: New says so, and replay
// runs without marks.
package marks

import (
	"hash/fnv"
	"image"
	"image/color"
	"sync"

	"github.com/reprise-dev/reprise/platform/screen"
)

// Mark is where one action lands.
type Mark struct {
	Box   image.Rectangle // screen pixels
	Label string          // "skill: step 3 (click)"; never typed text
	Color color.RGBA
}

// AtPoint is the mark of pointer input at p: a square around it.
func AtPoint(p image.Point, label, skill string) Mark {
	const half = 14
	return Mark{Box: image.Rect(p.X-half, p.Y-half, p.X+half, p.Y+half), Label: label, Color: ColorOf(skill)}
}

// Around is the mark of an action on an element with bounds box.
func Around(box image.Rectangle, label, skill string) Mark {
	return Mark{Box: box.Inset(-3), Label: label, Color: ColorOf(skill)}
}

// palette holds colors that read on light and dark windows alike.
var palette = []color.RGBA{
	{0xE6, 0x19, 0x4B, 0xFF}, {0x3C, 0xB4, 0x4B, 0xFF}, {0x43, 0x63, 0xD8, 0xFF},
	{0xF5, 0x82, 0x31, 0xFF}, {0x91, 0x1E, 0xB4, 0xFF}, {0x00, 0x80, 0x80, 0xFF},
}

// ColorOf is a skill's marks' color, so that the marks of replays running
// at once stay apart.
func ColorOf(skill string) color.RGBA {
	h := fnv.New32a()
	h.Write([]byte(skill))
	return palette[h.Sum32()%uint32(len(palette))]
}

// Overlay draws marks.
type Overlay interface {
	// Show replaces the mark shown, if any, with m, for two seconds.
	Show(m Mark) error
	// Suspend takes the mark off the screen until Resume puts it back (if
	// its time is not up): a screenshot is taken between them.
	Suspend()
	Resume()
	Close() error
}

// Hidden is g with the overlay's mark off the screen during every grab.
func Hidden(g screen.Grabber, o Overlay) screen.Grabber {
	if o == nil {
		return g
	}
	return &hidden{g: g, o: o}
}

type hidden struct {
	mu sync.Mutex
	g  screen.Grabber
	o  Overlay
}

func (h *hidden) Grab() (*image.RGBA, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.o.Suspend()
	defer h.o.Resume()
	return h.g.Grab()
}
