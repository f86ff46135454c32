package cocoa

// Rect is a rectangle in global display coordinates (origin top left of the
// main display, y down), as CGWindowListCopyWindowInfo's kCGWindowBounds.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether point x, y lies inside r.
func (r Rect) Contains(x, y int) bool {
	fx, fy := float64(x), float64(y)
	return r.W > 0 && r.H > 0 && fx >= r.X && fy >= r.Y && fx < r.X+r.W && fy < r.Y+r.H
}

// WindowInfo is one on-screen window, as the window server lists it.
type WindowInfo struct {
	Number   uint32 // kCGWindowNumber
	Layer    int    // kCGWindowLayer: 0 for normal application windows
	OwnerPID int    // kCGWindowOwnerPID
	Owner    string // kCGWindowOwnerName: the application
	Name     string // kCGWindowName: the title; empty without Screen Recording permission
	Bounds   Rect   // kCGWindowBounds
}

// PickWindow chooses, from windows listed front to back, the one an event
// went to: the window numbered id when it is listed; else for a point event
// (atPoint) the frontmost normal window (layer 0) containing x, y; else the
// frontmost normal window of process pid. ok is false when none fits.
func PickWindow(windows []WindowInfo, id uint32, pid int, x, y int, atPoint bool) (WindowInfo, bool) {
	if id != 0 {
		for _, w := range windows {
			if w.Number == id {
				return w, true
			}
		}
	}
	if atPoint {
		for _, w := range windows {
			if w.Layer == 0 && w.Bounds.Contains(x, y) {
				return w, true
			}
		}
	}
	if pid != 0 {
		for _, w := range windows {
			if w.Layer == 0 && w.OwnerPID == pid {
				return w, true
			}
		}
	}
	return WindowInfo{}, false
}

// FindWindow returns the frontmost normal window titled title.
func FindWindow(windows []WindowInfo, title string) (WindowInfo, bool) {
	for _, w := range windows {
		if w.Layer == 0 && w.Name == title {
			return w, true
		}
	}
	return WindowInfo{}, false
}
