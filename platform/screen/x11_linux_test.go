package screen

import (
	"image"
	"image/color"
	"math/bits"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

// showWindow maps an override-redirect window (so openbox neither moves nor
// decorates it) filled with c by the server, and waits until it is mapped.
func showWindow(t *testing.T, display string, r image.Rectangle, c color.RGBA) {
	t.Helper()
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	screen := xproto.Setup(conn).DefaultScreen(conn)
	var pixel uint32
	for _, d := range screen.AllowedDepths {
		for _, v := range d.Visuals {
			if v.VisualId == screen.RootVisual {
				pixel = uint32(c.R)<<bits.TrailingZeros32(v.RedMask) |
					uint32(c.G)<<bits.TrailingZeros32(v.GreenMask) |
					uint32(c.B)<<bits.TrailingZeros32(v.BlueMask)
			}
		}
	}
	wid, err := xproto.NewWindowId(conn)
	if err != nil {
		t.Fatal(err)
	}
	err = xproto.CreateWindowChecked(conn, screen.RootDepth, wid, screen.Root,
		int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()), 0,
		xproto.WindowClassInputOutput, screen.RootVisual,
		xproto.CwBackPixel|xproto.CwOverrideRedirect|xproto.CwEventMask,
		[]uint32{pixel, 1, xproto.EventMaskStructureNotify}).Check()
	if err != nil {
		t.Fatalf("CreateWindow: %v", err)
	}
	if err := xproto.MapWindowChecked(conn, wid).Check(); err != nil {
		t.Fatalf("MapWindow: %v", err)
	}
	mapped := make(chan struct{})
	go func() {
		for {
			ev, err := conn.WaitForEvent()
			if ev == nil && err == nil {
				return // connection closed
			}
			if _, ok := ev.(xproto.MapNotifyEvent); ok {
				close(mapped)
				return
			}
		}
	}()
	select {
	case <-mapped:
	case <-time.After(5 * time.Second):
		t.Fatal("the test window was not mapped in 5 s")
	}
}

func TestX11Grab(t *testing.T) {
	d := xvfb.Start(t)
	// Grabbers first: shm.Init writes xgb's global event tables, which the
	// window connection's reader would otherwise read at the same time.
	viaSHM, err := newX11(d.Display, true)
	if err != nil {
		t.Fatal(err)
	}
	defer viaSHM.Close()
	viaSocket, err := newX11(d.Display, false)
	if err != nil {
		t.Fatal(err)
	}
	defer viaSocket.Close()
	if !viaSHM.SHM() {
		t.Errorf("NewX11(%q).SHM() = false; want MIT-SHM on a local Xvfb", d.Display)
	}

	win := image.Rect(100, 150, 300, 270)
	want := color.RGBA{0xe0, 0x40, 0x10, 0xff} // asymmetric: a swapped order shows
	showWindow(t, d.Display, win, want)

	for _, tt := range []struct {
		name string
		x    *X11
	}{{"shm", viaSHM}, {"socket", viaSocket}} {
		t.Run(tt.name, func(t *testing.T) {
			img, err := tt.x.Grab()
			if err != nil {
				t.Fatalf("Grab: %v", err)
			}
			if got := img.Rect.Size(); got != image.Pt(1280, 800) {
				t.Fatalf("Grab() is %v; want 1280x800", got)
			}
			checkWindow(t, img, win, want)
		})
	}
}

// checkWindow checks that img shows c exactly over win: its corners inside,
// not just outside.
func checkWindow(t *testing.T, img *image.RGBA, win image.Rectangle, c color.RGBA) {
	t.Helper()
	inside := []image.Point{win.Min, {win.Max.X - 1, win.Min.Y}, {win.Min.X, win.Max.Y - 1}, win.Max.Sub(image.Pt(1, 1))}
	for _, p := range inside {
		if got := img.RGBAAt(p.X, p.Y); got != c {
			t.Errorf("pixel %v = %v; want the window's %v", p, got, c)
		}
	}
	outside := []image.Point{win.Min.Sub(image.Pt(1, 1)), win.Max, {win.Max.X, win.Min.Y}}
	for _, p := range outside {
		if got := img.RGBAAt(p.X, p.Y); got == c {
			t.Errorf("pixel %v = %v, outside the window; want the desktop", p, got)
		}
	}
}
