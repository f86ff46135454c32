package quartz

import (
	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/platform/cocoa"
)

// resolve names the window an event went to, off the input path: the
// window under a click, else the frontmost window of the process the keys
// went to; the application is that window's owner, else the frontmost one.
func resolve(e Event, w *desktop.Window) {
	if list, err := cocoa.Windows(); err == nil {
		pid := e.PID
		if pid == 0 && e.Kind == KeyDown {
			_, pid, _ = cocoa.Frontmost()
		}
		if info, ok := cocoa.PickWindow(list, e.WindowID, pid, e.X, e.Y, e.Kind == MouseDown); ok {
			w.ID, w.App, w.Title = info.Number, info.Owner, info.Name
		}
	}
	if w.App == "" {
		w.App, _, _ = cocoa.Frontmost()
	}
}
