package marks

import (
	"context"
	"image"
	"image/color"
	"math/bits"
	"strconv"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/screen"
)

// window maps a plain window of color c over r that listens for button
// presses, and returns the channel they arrive on.
func window(t *testing.T, display string, r image.Rectangle, c color.RGBA) <-chan xproto.ButtonPressEvent {
	t.Helper()
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	scr := xproto.Setup(conn).DefaultScreen(conn)
	var pixel uint32
	for _, d := range scr.AllowedDepths {
		for _, v := range d.Visuals {
			if v.VisualId == scr.RootVisual {
				pixel = uint32(c.R)<<bits.TrailingZeros32(v.RedMask) | uint32(c.G)<<bits.TrailingZeros32(v.GreenMask) |
					uint32(c.B)<<bits.TrailingZeros32(v.BlueMask)
			}
		}
	}
	wid, err := xproto.NewWindowId(conn)
	if err != nil {
		t.Fatal(err)
	}
	err = xproto.CreateWindowChecked(conn, scr.RootDepth, wid, scr.Root, int16(r.Min.X), int16(r.Min.Y), uint16(r.Dx()), uint16(r.Dy()), 0,
		xproto.WindowClassInputOutput, scr.RootVisual, xproto.CwBackPixel|xproto.CwOverrideRedirect|xproto.CwEventMask,
		[]uint32{pixel, 1, xproto.EventMaskStructureNotify | xproto.EventMaskButtonPress}).Check()
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.MapWindowChecked(conn, wid).Check(); err != nil {
		t.Fatal(err)
	}
	presses := make(chan xproto.ButtonPressEvent, 4)
	mapped := make(chan struct{})
	go func() {
		for {
			ev, err := conn.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			switch e := ev.(type) {
			case xproto.MapNotifyEvent:
				close(mapped)
			case xproto.ButtonPressEvent:
				presses <- e
			}
		}
	}()
	<-mapped
	return presses
}

// TestMarkIsSeenNotGrabbedAndTakesNoClick: a mark drawn over a window is
// on the screen; a grab through Hidden does not show it; a click on its
// frame reaches the window under it.
func TestMarkIsSeenNotGrabbedAndTakesNoClick(t *testing.T) {
	d := xvfb.Start(t)
	// The X extensions first: their Init writes xgb's global tables.
	grab, err := screen.NewX11(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer grab.Close()
	o, err := New(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	under := color.RGBA{0x20, 0x40, 0x80, 0xff}
	presses := window(t, d.Display, image.Rect(100, 100, 400, 300), under)

	m := AtPoint(image.Pt(200, 200), "customer: step 3 (click)", "customer")
	if err := o.Show(m); err != nil {
		t.Fatal(err)
	}
	edge := image.Pt(m.Box.Min.X+1, 200) // on the frame's left side
	img, err := grab.Grab()
	if err != nil {
		t.Fatal(err)
	}
	if got := img.RGBAAt(edge.X, edge.Y); got != m.Color {
		t.Fatalf("the mark's frame at %v is %v; want the mark's %v", edge, got, m.Color)
	}
	if got := img.RGBAAt(200, 200); got != under {
		t.Errorf("inside the frame %v; want the window's %v (a frame, not a box)", got, under)
	}
	hidden := Hidden(grab, o)
	if img, err = hidden.Grab(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []image.Point{edge, {m.Box.Min.X + 2, m.Box.Min.Y - 5}} {
		if got := img.RGBAAt(p.X, p.Y); got != under {
			t.Errorf("a grab through Hidden shows %v at %v; want the window's %v, no mark", got, p, under)
		}
	}
	if img, _ = grab.Grab(); img.RGBAAt(edge.X, edge.Y) != m.Color {
		t.Error("the mark did not come back after the grab")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := d.Xdotool(ctx, "mousemove", strconv.Itoa(edge.X), strconv.Itoa(edge.Y), "click", "1"); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-presses:
		if int(p.RootX) != edge.X || int(p.RootY) != edge.Y {
			t.Errorf("the window got a press at %d,%d; want %v", p.RootX, p.RootY, edge)
		}
	case <-ctx.Done():
		t.Fatal("a click on the mark's frame did not reach the window under it")
	}
}
