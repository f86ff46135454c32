package atspi

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/godbus/dbus/v5"
)

// Sentinel errors for what callers branch on: no bus at all means this
// machine cannot enrich, not that one lookup failed.
var (
	ErrNoSessionBus = errors.New("atspi: no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)")
	ErrNoA11yBus    = errors.New("atspi: no accessibility bus")
	ErrUnsupported  = errors.New("atspi: AT-SPI is not supported on " + runtime.GOOS)
)

// Available reports whether an accessibility bus can be found and reached
// for opts.Display; when not, reason says why and what to do.
func Available(opts Options) (ok bool, reason string) {
	opts.setDefaults()
	ctx, cancel := context.WithTimeout(context.Background(), 5*opts.Timeout)
	defer cancel()
	conn, _, err := connectA11y(ctx, opts.Display)
	if err != nil {
		return false, err.Error() + "; AT-SPI enrichment needs a desktop session with at-spi2-core (the package providing at-spi-bus-launcher)"
	}
	conn.Close()
	return true, ""
}

// connectA11y finds the accessibility bus the way libatspi does
// (atspi_get_a11y_bus) and connects to it: AT_SPI_BUS_ADDRESS, else the X
// root window's AT_SPI_BUS property, else org.a11y.Bus.GetAddress on the
// session bus, which starts at-spi-bus-launcher by D-Bus activation. It
// returns where the address came from, for the log.
func connectA11y(ctx context.Context, display string) (*dbus.Conn, string, error) {
	if runtime.GOOS != "linux" {
		// Other systems have their own accessibility APIs (AX, UIA).
		return nil, "", ErrUnsupported
	}
	if addr := os.Getenv("AT_SPI_BUS_ADDRESS"); addr != "" {
		conn, err := dial(ctx, addr)
		if err != nil {
			return nil, "", fmt.Errorf("%w: connect to AT_SPI_BUS_ADDRESS: %v", ErrNoA11yBus, err)
		}
		return conn, "env", nil
	}
	// A launcher that died leaves its address on the root window, so a
	// property that does not connect falls through to the session bus.
	if addr := rootWindowBus(ctx, display); addr != "" {
		if conn, err := dial(ctx, addr); err == nil {
			return conn, "x11", nil
		}
	}
	addr, err := sessionA11yAddress(ctx)
	if err != nil {
		return nil, "", err
	}
	conn, err := dial(ctx, addr)
	if err != nil {
		return nil, "", fmt.Errorf("%w: connect to the address org.a11y.Bus gave: %v", ErrNoA11yBus, err)
	}
	return conn, "session", nil
}

// sessionAddress is the session bus address, never autolaunched: godbus
// would otherwise start a bus of its own (with dbus-x11 installed) and leave
// its daemons behind.
func sessionAddress() (string, error) {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a, nil
	}
	// systemd's user bus, where the variable is not exported.
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		p := filepath.Join(dir, "bus")
		if fi, err := os.Stat(p); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + p, nil
		}
	}
	return "", ErrNoSessionBus
}

func sessionA11yAddress(ctx context.Context) (string, error) {
	saddr, err := sessionAddress()
	if err != nil {
		return "", err
	}
	conn, err := dial(ctx, saddr)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSessionBus, err)
	}
	defer conn.Close()
	var addr string
	err = conn.Object("org.a11y.Bus", "/org/a11y/bus").
		CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr)
	if err != nil {
		return "", fmt.Errorf("%w: org.a11y.Bus.GetAddress: %v", ErrNoA11yBus, err)
	}
	if addr == "" {
		return "", fmt.Errorf("%w: org.a11y.Bus returned no address", ErrNoA11yBus)
	}
	return addr, nil
}

// dial connects, authenticates and says Hello within ctx. godbus's Auth and
// Hello take no context, and dbus.WithContext would tie the connection's
// whole life to ctx, so a stuck handshake is cut by closing the connection.
func dial(ctx context.Context, addr string) (*dbus.Conn, error) {
	conn, err := dbus.Dial(addr)
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() {
		if err := conn.Auth(nil); err != nil {
			done <- fmt.Errorf("auth: %w", err)
			return
		}
		done <- conn.Hello()
	}()
	select {
	case err = <-done:
	case <-ctx.Done():
		conn.Close()
		<-done
		err = ctx.Err()
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// trimNUL drops the terminator some writers leave in an X string property.
func trimNUL(s string) string { return strings.TrimRight(s, "\x00") }
