package computer

import (
	"image"
	"math"
	"strconv"

	"github.com/reprise-dev/reprise/platform/cocoa"
)

// fromCocoa turns the window server's list (front to back) into targets:
// application windows only (layer 0), the frontmost one of the front app
// focused. A window whose title the window server withholds (no Screen
// Recording permission) is refused, since the deny list cannot be
// checked against it.
func fromCocoa(ws []cocoa.WindowInfo, frontPID int) []Window {
	var out []Window
	focused := false
	for _, w := range ws {
		if w.Layer != 0 || w.Bounds.W <= 0 || w.Bounds.H <= 0 {
			continue
		}
		b := w.Bounds
		win := Window{
			ID: strconv.FormatUint(uint64(w.Number), 10), App: w.Owner, Title: w.Name, PID: w.OwnerPID,
			Identity: identity(w.OwnerPID, "", w.Owner, ""), // CGWindowIDs are not reused while the session lasts
			Bounds:   image.Rect(int(math.Floor(b.X)), int(math.Floor(b.Y)), int(math.Ceil(b.X+b.W)), int(math.Ceil(b.Y+b.H))),
		}
		if !focused && w.OwnerPID == frontPID && frontPID != 0 {
			win.Focused, focused = true, true
		}
		if w.Name == "" {
			win.Title = TitleWithheld
		}
		out = append(out, win)
	}
	return out
}
