package doctor

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

func platformProbes() []Probe {
	return []Probe{keychain, display, Browser("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")}
}

// keychain checks for a Secret Service on the session bus, which go-keyring
// uses on Linux.
func keychain(ctx context.Context) Check {
	c := Check{Name: "keychain"}
	bus := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if bus == "" {
		c.Detail = "no D-Bus session bus, so no Secret Service: keys would go to a key file readable only by you"
		c.Fix = "run inside a desktop session, or under dbus-run-session with gnome-keyring-daemon unlocked"
		return c
	}
	send, err := exec.LookPath("dbus-send")
	if err != nil {
		c.Detail = "a session bus exists but dbus-send is missing to check for a Secret Service"
		c.Fix = "apt-get install dbus-bin"
		return c
	}
	out, err := exec.CommandContext(ctx, send, "--session", "--print-reply", "--dest=org.freedesktop.DBus",
		"/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets").Output()
	if err != nil || !strings.Contains(string(out), "boolean true") {
		c.Detail = "the session bus has no Secret Service (org.freedesktop.secrets)"
		c.Fix = "start gnome-keyring-daemon --components=secrets (or KeePassXC's Secret Service)"
		return c
	}
	c.OK, c.Detail = true, "Secret Service on the session bus"
	return c
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
