package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
)

func platformProbes() []Probe {
	return []Probe{display, x11Extensions, a11yBus, Browser("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")}
}

// display checks for an X11 display, which desktop capture needs on Linux.
func display(context.Context) Check {
	c := Check{Name: "display"}
	d := os.Getenv("DISPLAY")
	switch {
	case d != "":
		num, _, _ := strings.Cut(d[strings.LastIndex(d, ":")+1:], ".")
		if _, err := os.Stat(filepath.Join("/tmp/.X11-unix", "X"+num)); err != nil && strings.HasPrefix(d, ":") {
			c.Detail = "DISPLAY=" + d + " but no X server socket for it"
			c.Fix = "start the X server, or Xvfb for a headless session"
			return c
		}
		c.OK, c.Detail = true, "X11 display "+d
	case os.Getenv("WAYLAND_DISPLAY") != "":
		c.Detail = "Wayland session without X11: desktop capture needs X11 (XWayland apps work)"
		c.Fix = "log in to an X11 session for desktop recording"
	default:
		c.Detail = "no display: desktop recording and replay are unavailable; the browser channel still works"
		c.Fix = "run inside a desktop session, or under Xvfb"
	}
	return c
}

const keychainFix = "run inside a desktop session with a Secret Service (gnome-keyring, KeePassXC), or under dbus-run-session with gnome-keyring-daemon unlocked"
