package xvfb

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// StartA11yBus starts the session's accessibility bus with this desktop's
// DISPLAY, so GTK apps on it register and the bus's address is on its root
// window. It does nothing when the session has one already.
func (d *Desktop) StartA11yBus(t testing.TB) {
	t.Helper()
	d.StartA11yBusOn(t, nil)
}

// StartA11yBusOn is StartA11yBus on the session bus env names (as
// SessionBus returns it); nil is this process's.
func (d *Desktop) StartA11yBusOn(t testing.TB, env []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var conn *dbus.Conn
	var err error
	if addr := envValue(env, "DBUS_SESSION_BUS_ADDRESS"); addr != "" {
		if conn, err = dbus.Connect(addr, dbus.WithContext(ctx)); err != nil {
			t.Fatalf("the session bus at %s: %v", addr, err)
		}
	} else if conn, err = dbus.ConnectSessionBus(dbus.WithContext(ctx)); err != nil {
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

// PrivateSessionBus starts a D-Bus session bus of the test's own and points
// this process (and the children it starts) at it: an accessibility bus
// shared with other tests keeps their dead apps, and lookups that reach one
// wait for it to time out. It activates only the accessibility bus: a
// Secret Service started on it would ask for a keyring password in a
// dialog on the test's display, over the app under test.
func PrivateSessionBus(t *testing.T) {
	t.Helper()
	for _, kv := range SessionBus(t) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// SessionBus starts a D-Bus session bus of its own, as PrivateSessionBus
// does, and returns the environment that points a process at it, leaving
// this process's alone: a session for each of a test's desktops.
func SessionBus(t testing.TB) []string {
	t.Helper()
	run, services := t.TempDir(), t.TempDir()
	const a11y = "/usr/share/dbus-1/services/org.a11y.Bus.service"
	if err := os.Symlink(a11y, filepath.Join(services, "org.a11y.Bus.service")); err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(run, "session.conf")
	err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=`+run+`</listen>
  <auth>EXTERNAL</auth>
  <servicedir>`+services+`</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address=1")
	cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+run)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start a session bus: %v (run scripts/deps: it needs dbus-daemon)", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr := make(chan string, 1)
	go func() {
		b := make([]byte, 512)
		n, _ := out.Read(b)
		addr <- strings.TrimSpace(string(b[:n]))
	}()
	select {
	case a := <-addr:
		if a == "" {
			t.Fatal("the session bus printed no address")
		}
		return []string{"DBUS_SESSION_BUS_ADDRESS=" + a, "XDG_RUNTIME_DIR=" + run, "AT_SPI_BUS_ADDRESS="}
	case <-time.After(10 * time.Second):
		t.Fatal("the session bus did not start in 10 s")
	}
	return nil
}

// envValue is key's value in env (KEY=value entries), the last one set.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == key {
			v = val
		}
	}
	return v
}
