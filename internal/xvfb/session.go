package xvfb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

const sessionVar = "REPRISE_TEST_SESSION"

// MainWithSessionBus runs m inside a D-Bus session of its own when there is
// none (plain "go test"; scripts/with-keyring already provides one): it
// re-runs the test binary under dbus-run-session with a private
// XDG_RUNTIME_DIR, so the accessibility bus a test starts is its own.
func MainWithSessionBus(m *testing.M) int {
	if runtime.GOOS != "linux" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" || os.Getenv(sessionVar) != "" {
		return m.Run()
	}
	if _, err := exec.LookPath("dbus-run-session"); err != nil {
		fmt.Fprintln(os.Stderr, "dbus-run-session is missing: run scripts/deps (Debian package dbus-bin)")
		return 1
	}
	dir, err := os.MkdirTemp("", "reprise-run")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command("dbus-run-session", append([]string{"--", os.Args[0]}, os.Args[1:]...)...)
	cmd.Env = append(os.Environ(), sessionVar+"=1", "XDG_RUNTIME_DIR="+dir)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "dbus-run-session:", err)
		return 1
	}
	return 0
}

// StartA11yBus starts the session's accessibility bus with this desktop's
// DISPLAY, so GTK apps on it register and the bus's address is on its root
// window. It does nothing when the session has one already.
func (d *Desktop) StartA11yBus(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		t.Fatalf("no session bus (run the tests under scripts/with-keyring, or use MainWithSessionBus): %v", err)
	}
	defer conn.Close()
	bus := conn.BusObject()
	var owned bool
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, "org.a11y.Bus").Store(&owned); err != nil {
		t.Fatalf("NameHasOwner: %v", err)
	}
	if owned {
		return
	}
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.UpdateActivationEnvironment", 0, map[string]string{"DISPLAY": d.Display}).Err; err != nil {
		t.Fatalf("UpdateActivationEnvironment: %v", err)
	}
	var addr string
	if err := conn.Object("org.a11y.Bus", "/org/a11y/bus").CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr); err != nil {
		t.Fatalf("start the accessibility bus: %v (run scripts/deps: it needs at-spi2-core)", err)
	}
}
