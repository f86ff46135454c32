package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// canvas maps a plain X window with no accessibility at all, as a legacy
// app or a drawing surface is.
func canvas(t *testing.T, d *xvfb.Desktop) {
	t.Helper()
	conn, err := xgb.NewConnDisplay(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	screen := xproto.Setup(conn).DefaultScreen(conn)
	win, _ := xproto.NewWindowId(conn)
	xproto.CreateWindow(conn, screen.RootDepth, win, screen.Root, 100, 100, 500, 400, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwBackPixel, []uint32{0x336699})
	atom := func(n string) xproto.Atom {
		r, _ := xproto.InternAtom(conn, false, uint16(len(n)), n).Reply()
		return r.Atom
	}
	xproto.ChangeProperty(conn, xproto.PropModeReplace, win, atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, 6, []byte("Canvas"))
	xproto.ChangeProperty(conn, xproto.PropModeReplace, win, xproto.AtomWmName, xproto.AtomString, 8, 6, []byte("Canvas"))
	xproto.ChangeProperty(conn, xproto.PropModeReplace, win, xproto.AtomWmClass, xproto.AtomString, 8, 14, []byte("canvas\x00Canvas\x00"))
	xproto.MapWindow(conn, win)
	_, _ = xproto.GetInputFocus(conn).Reply() // the requests above leave now
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// A window mapped while the window manager is still settling may be
	// left unmapped: map it again until it shows.
	for {
		wctx, wcancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := d.Window(wctx, "Canvas")
		wcancel()
		if err == nil {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the canvas window never showed: %v", err)
		}
		xproto.MapWindow(conn, win)
		_, _ = xproto.GetInputFocus(conn).Reply()
	}
}

// TestAppWithoutAccessibility: steps in a window the accessibility tree
// knows nothing of are kind none, each with its frame; with no OCR on the
// machine either, the recording is flagged "records poorly".
func TestAppWithoutAccessibility(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	// A PATH with xdotool and no tesseract: this machine has no OCR.
	bin := t.TempDir()
	if err := os.Symlink("/usr/bin/xdotool", filepath.Join(bin, "xdotool")); err != nil {
		t.Fatal(err)
	}
	path := os.Getenv("PATH")
	t.Setenv("PATH", bin)
	t.Setenv("DISPLAY", d.Display)
	home := t.TempDir()
	startDaemonProcess(t, home, "--consent-prompt", "cli")
	t.Setenv("PATH", path)
	canvas(t, d)
	out, stderr, err := run(t, home, "record", "start", "--yes", "--channels", "floor,desktop_ax")
	id := regexp.MustCompile(`rec_[0-9a-f-]{36}`).FindString(out)
	if err != nil || id == "" {
		t.Fatalf("record start: %v\n%s%s", err, out, stderr)
	}
	time.Sleep(500 * time.Millisecond)
	ctx := context.Background()
	for i, p := range [][2]int{{200, 200}, {300, 250}, {400, 300}} {
		if _, err := d.Xdotool(ctx, "mousemove", fmt.Sprint(p[0]), fmt.Sprint(p[1]), "click", fmt.Sprint(1+2*(i%2))); err != nil {
			t.Fatal(err)
		}
		time.Sleep(600 * time.Millisecond) // past the double-click window
	}
	out, stderr, err = run(t, home, "record", "stop")
	if err != nil || !strings.Contains(out, "3 steps") || !strings.Contains(out, "none 3") {
		t.Fatalf("record stop: %v\n%s%s; want three steps of kind none", err, out, stderr)
	}
	if !strings.Contains(stderr, "records poorly") {
		t.Errorf("no coverage warning for a recording of kind none steps without OCR:\n%s", stderr)
	}
	out, _, err = run(t, home, "recordings", "fetch", id, "--format", "json")
	var rec events.Recording
	if err != nil || json.Unmarshal([]byte(out), &rec) != nil {
		t.Fatalf("fetch: %v", err)
	}
	for _, s := range rec.Steps {
		if s.ScreenshotRef == "" || s.Enrichment != nil && s.Enrichment.Kind != events.KindNone {
			t.Errorf("step %d: frame %q, enrichment %+v; want a frame and kind none", s.Seq, s.ScreenshotRef, s.Enrichment)
		}
	}
	if rec.Steps[1].Value == nil || rec.Steps[1].Value.Raw != "right" {
		t.Errorf("the right click is %+v", rec.Steps[1].Value)
	}
}
