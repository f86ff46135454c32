package x11

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/capturetest"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

const (
	testTitle = "Reprise test — new customer"
	testClass = "RepriseTest"
)

// testWindow maps a 400x300 application window on desk, named like a real
// one (title, class, pid), and returns its id as xdotool wants it and a
// function that turns a point in it into root coordinates.
func testWindow(t *testing.T, desk *xvfb.Desktop) (id string, toRoot func(x, y int) (int, int)) {
	t.Helper()
	c, err := xgb.NewConnDisplay(desk.Display)
	if err != nil {
		t.Fatalf("connect to %s: %v", desk.Display, err)
	}
	t.Cleanup(c.Close)
	screen := xproto.Setup(c).DefaultScreen(c)
	w, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	err = xproto.CreateWindowChecked(c, screen.RootDepth, w, screen.Root, 100, 100, 400, 300, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwBackPixel, []uint32{screen.WhitePixel}).Check()
	if err != nil {
		t.Fatalf("create window: %v", err)
	}
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatalf("intern %s: %v", name, err)
		}
		return r.Atom
	}
	set := func(prop, typ xproto.Atom, format byte, data []byte) {
		n := uint32(len(data)) / uint32(format/8)
		if err := xproto.ChangePropertyChecked(c, xproto.PropModeReplace, w, prop, typ, format, n, data).Check(); err != nil {
			t.Fatalf("set window property: %v", err)
		}
	}
	set(xproto.AtomWmName, xproto.AtomString, 8, []byte("Reprise test"))
	set(atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, []byte(testTitle))
	set(xproto.AtomWmClass, xproto.AtomString, 8, []byte("reprise-test\x00"+testClass+"\x00"))
	pid := make([]byte, 4)
	xgb.Put32(pid, uint32(os.Getpid()))
	set(atom("_NET_WM_PID"), xproto.AtomCardinal, 32, pid)
	// xvfb.Start returns once openbox publishes its desktops, which can be
	// before it handles MapRequests: one sent then is lost and the window
	// stays unmapped. Ask again until the window is viewable.
	for deadline := time.Now().Add(20 * time.Second); ; {
		if err := xproto.MapWindowChecked(c, w).Check(); err != nil {
			t.Fatalf("map window: %v", err)
		}
		for range 20 {
			a, err := xproto.GetWindowAttributes(c, w).Reply()
			if err == nil && a.MapState == xproto.MapStateViewable {
				return strconv.FormatUint(uint64(w), 10), rootPoint(c, w, screen.Root, t)
			}
			time.Sleep(25 * time.Millisecond)
		}
		if time.Now().After(deadline) {
			t.Fatal("the test window was not mapped within 20 s")
		}
	}
}

// rootPoint returns a function that turns a point in w into root coordinates.
func rootPoint(c *xgb.Conn, w, root xproto.Window, t *testing.T) func(x, y int) (int, int) {
	return func(x, y int) (int, int) {
		r, err := xproto.TranslateCoordinates(c, w, root, int16(x), int16(y)).Reply()
		if err != nil {
			t.Fatalf("translate coordinates: %v", err)
		}
		return int(r.DstX), int(r.DstY)
	}
}

func xdotool(t *testing.T, desk *xvfb.Desktop, args ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := desk.Xdotool(ctx, args...); err != nil {
		t.Fatal(err)
	}
}

// TestSourceUnderXvfb plays a person on a real X display and checks the
// steps the source assembles: a click, the committed text, a chord, a double and
// a right click, each with the window, app and cursor.
func TestSourceUnderXvfb(t *testing.T) {
	desk := xvfb.Start(t)
	id, toRoot := testWindow(t, desk)
	src := New(Options{Display: desk.Display})
	if ok, reason := src.Available(); !ok {
		t.Fatalf("Available() = false, %q; want true under Xvfb", reason)
	}
	q := capture.NewQueue(0)
	if err := src.Start(context.Background(), capture.Session{RecordingID: "rec_x11"}, q); err != nil {
		t.Fatalf("Start() = %v; want nil", err)
	}
	t.Cleanup(func() { src.Stop() })
	xdotool(t, desk, "mousemove", "--window", id, "50", "60", "click", "1")
	xdotool(t, desk, "type", "--delay", "20", "hello")
	xdotool(t, desk, "key", "Tab")
	xdotool(t, desk, "key", "ctrl+s")
	xdotool(t, desk, "mousemove", "--window", id, "200", "100", "click", "--repeat", "2", "--delay", "80", "1")
	xdotool(t, desk, "mousemove", "--window", id, "300", "200", "click", "3")
	// Let the last events reach the server's RECORD stream before Stop.
	for deadline := time.Now().Add(5 * time.Second); q.Len() < 5 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if err := src.Stop(); err != nil {
		t.Fatalf("Stop() = %v; want nil", err)
	}
	q.Close()
	var got []events.Step
	_ = q.Run(context.Background(), func(s events.Step) error { got = append(got, s); return nil })

	if acts := actions(got); acts != "click fill run click click" {
		t.Fatalf("steps = %s; want click fill run click click (stats %+v)", acts, src.Stats())
	}
	x, y := toRoot(50, 60)
	if c := got[0].Cursor; c[0] != x || c[1] != y {
		t.Errorf("click cursor = %v; want [%d %d], the root point of the click", c, x, y)
	}
	wantValues := []string{"", "text:hello", "enum:ctrl+s", "enum:double", "enum:right"}
	for i, s := range got {
		if err := s.Validate(); err != nil {
			t.Errorf("step %d (%s): Validate() = %v; want nil", i, s.Action, err)
		}
		v := ""
		if s.Value != nil {
			v = s.Value.Type + ":" + s.Value.Raw
		}
		if v != wantValues[i] {
			t.Errorf("step %d (%s) value = %q; want %q", i, s.Action, v, wantValues[i])
		}
		if s.ActiveWindow != testTitle || s.ActiveApp != testClass {
			t.Errorf("step %d (%s) in app %q window %q; want %q %q", i, s.Action, s.ActiveApp, s.ActiveWindow, testClass, testTitle)
		}
	}
	if s := src.Stats(); s.DroppedEvents != 0 || s.DroppedSteps != 0 || s.Steps != 5 {
		t.Errorf("Stats() = %+v; want 5 steps, nothing dropped", s)
	}
}

// TestConformance runs capturetest against the source on Xvfb, with
// xdotool as the person: a chord and a right click, two steps at once.
func TestConformance(t *testing.T) {
	desk := xvfb.Start(t)
	id, _ := testWindow(t, desk)
	capturetest.Run(t, func(t *testing.T) capture.Source {
		return New(Options{Display: desk.Display})
	}, func(t *testing.T, _ capture.Source) {
		xdotool(t, desk, "key", "ctrl+s")
		xdotool(t, desk, "mousemove", "--window", id, "30", "30", "click", "3")
	}, 2)
}

func TestAvailableSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name, display, wayland, want string
	}{
		{"no display", "", "", "DISPLAY is not set"},
		{"wayland only", "", "wayland-0", "Wayland"},
		{"nobody there", ":987", "", "connect to X display :987"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("WAYLAND_DISPLAY", tc.wayland)
			src := New(Options{Display: "unused"})
			src.opts.Display = tc.display // not from this process's DISPLAY
			ok, reason := src.Available()
			if ok || !strings.Contains(reason, tc.want) {
				t.Errorf("Available() = %v, %q; want false and a reason saying %q", ok, reason, tc.want)
			}
			if err := src.Start(context.Background(), capture.Session{}, capture.NewQueue(1)); err == nil {
				t.Errorf("Start() = nil on an unavailable display; want an error")
			}
			if err := src.Stop(); err != nil {
				t.Errorf("Stop() after a failed Start = %v; want nil", err)
			}
		})
	}
}

// TestAvailableNamesMissingExtensions runs Xvfb without RECORD and XTEST:
// the reason names both.
func TestAvailableNamesMissingExtensions(t *testing.T) {
	if _, err := exec.LookPath("Xvfb"); err != nil {
		t.Fatal("Xvfb is not installed: run scripts/deps")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	x := exec.Command("Xvfb", "-displayfd", "3", "-nolisten", "tcp", "-noreset", "-extension", "RECORD", "-extension", "XTEST")
	x.ExtraFiles = []*os.File{w}
	if err := x.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { _ = x.Process.Kill(); _ = x.Wait() })
	_ = r.SetReadDeadline(time.Now().Add(20 * time.Second))
	line, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("Xvfb did not report its display: %v", err)
	}
	src := New(Options{Display: ":" + strings.TrimSpace(line)})
	ok, reason := src.Available()
	if ok || !strings.Contains(reason, "lacks the RECORD and XTEST extensions") {
		t.Errorf("Available() = %v, %q; want false, naming RECORD and XTEST", ok, reason)
	}
	if err := src.Start(context.Background(), capture.Session{}, capture.NewQueue(1)); err == nil || !strings.Contains(err.Error(), "RECORD") {
		t.Errorf("Start() = %v; want an error naming RECORD", err)
	}
}
