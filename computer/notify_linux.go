package computer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/godbus/dbus/v5"
)

// desktopNotifier sends org.freedesktop.Notifications on the session bus,
// each replacing the last, so the person sees the grant's state, not a
// pile of it.
type desktopNotifier struct {
	mu   sync.Mutex
	conn *dbus.Conn
	last uint32
}

// NewNotifier returns the session bus's notifier; it dials at first use,
// so a daemon started before the desktop session still notifies later.
func NewNotifier() Notifier { return &desktopNotifier{} }

func (d *desktopNotifier) Notify(ctx context.Context, summary, body string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn == nil || !d.conn.Connected() {
		addr := sessionBus()
		if addr == "" {
			return errors.New("no session bus: DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is not there")
		}
		conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
		if err != nil {
			return fmt.Errorf("session bus: %w", err)
		}
		d.conn = conn
	}
	obj := d.conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	var id uint32
	err := obj.CallWithContext(ctx, "org.freedesktop.Notifications.Notify", 0,
		"reprise", d.last, "", summary, body, []string{}, map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("notify: %w", err)
	}
	d.last = id
	return nil
}

// sessionBus is the session bus's address, never autolaunching one (which
// godbus would, leaving a dbus-daemon behind).
func sessionBus() string {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return "unix:path=" + filepath.Join(dir, "bus")
		}
	}
	return ""
}
