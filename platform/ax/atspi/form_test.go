package atspi

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// formTitle is the zenity form every real test fills.
const formTitle = "New customer"

// form is a running zenity form on its own X desktop, and an Enricher on
// the accessibility bus it registered with.
type form struct {
	d      *xvfb.Desktop
	e      *Enricher
	out    *syncbuf.Buffer
	exited chan struct{}
	// ownBus is whether this form's test started the accessibility bus,
	// and so whether its address is on this display's root window.
	ownBus bool
}

// startForm starts a desktop, a zenity form with two entries and a password
// field, and an Enricher, and waits until the form's fields are on the
// accessibility bus. GTK 3 loads its AT-SPI bridge by itself and registers
// once the session bus can start org.a11y.Bus; nothing needs enabling.
func startForm(t testing.TB) *form {
	t.Helper()
	d := xvfb.Start(t)
	if _, err := exec.LookPath("zenity"); err != nil {
		t.Fatal("zenity is not installed: run scripts/deps")
	}
	ownBus := activateA11yBus(t, d.Display)
	cmd := exec.Command("zenity", "--forms", "--title", formTitle,
		"--add-entry", "First Name", "--add-entry", "Email", "--add-password", "Password")
	cmd.Env = d.Env()
	f := &form{d: d, out: &syncbuf.Buffer{}, exited: make(chan struct{}), ownBus: ownBus}
	var stderr syncbuf.Buffer
	cmd.Stdout, cmd.Stderr = f.out, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start zenity: %v", err)
	}
	go func() { _ = cmd.Wait(); close(f.exited) }()
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-f.exited })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := d.Window(ctx, formTitle); err != nil {
		t.Fatalf("zenity window: %v; zenity said: %s", err, stderr.String())
	}
	// A generous Timeout: these tests check what At finds, and a loaded CI
	// machine stalls a process for hundreds of milliseconds now and then
	// (BenchmarkAt measures the speed).
	e, err := New(Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	f.e = e
	for {
		els, err := e.Find(ctx, formTitle, "textbox", "")
		if err == nil && len(els) == 3 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the form's three fields never appeared on the accessibility bus: %d found, err %v; zenity said: %s", len(els), err, stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return f
}

// activateA11yBus starts the accessibility bus now, with DISPLAY set, when
// this session has none yet: at-spi-bus-launcher then names its socket after
// the display (unique among running X servers, so parallel runs do not
// collide) and publishes the address on the root window, which At reads.
func activateA11yBus(t testing.TB, display string) bool {
	t.Helper()
	saddr, err := sessionAddress()
	if err != nil {
		t.Fatalf("no session bus: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dial(ctx, saddr)
	if err != nil {
		t.Fatalf("session bus: %v", err)
	}
	defer conn.Close()
	bus := conn.Object("org.freedesktop.DBus", "/org/freedesktop/DBus")
	var owned bool
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, "org.a11y.Bus").Store(&owned); err != nil {
		t.Fatalf("NameHasOwner: %v", err)
	}
	if owned {
		return false
	}
	env := map[string]string{"DISPLAY": display}
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.UpdateActivationEnvironment", 0, env).Err; err != nil {
		t.Fatalf("UpdateActivationEnvironment: %v", err)
	}
	var addr string
	if err := conn.Object("org.a11y.Bus", "/org/a11y/bus").CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr); err != nil {
		t.Fatalf("start the accessibility bus: %v (run scripts/deps: it needs the Debian package at-spi2-core)", err)
	}
	return true
}

// fields returns the form's text boxes top to bottom (GTK lists them in
// reverse), found by role alone so that the label rule is tested by At.
func (f *form) fields(t testing.TB) []Element {
	t.Helper()
	els, err := f.e.Find(context.Background(), formTitle, "textbox", "")
	if err != nil || len(els) != 3 {
		t.Fatalf("Find(textbox) = %d elements, %v; want 3", len(els), err)
	}
	slices.SortFunc(els, func(a, b Element) int { return a.Bounds.Min.Y - b.Bounds.Min.Y })
	return els
}

// centre is the middle of an element's bounds, where a person clicks.
func centre(el Element) (int, int) {
	c := el.Bounds.Min.Add(el.Bounds.Max).Div(2)
	return c.X, c.Y
}
