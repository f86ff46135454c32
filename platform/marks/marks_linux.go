package marks

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math/bits"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/shape"
	"github.com/jezek/xgb/xproto"
)

// Timing and sizes of a mark.
const (
	showFor   = 2 * time.Second
	thickness = 3
	labelH    = 14
	charW     = 6 // the "fixed" font's cell
	maxLabel  = 60
)

// x11 is the X11 overlay: one override-redirect window, shaped to the
// frame and its label, taking no input (an empty input shape).
type x11 struct {
	conn   *xgb.Conn
	screen *xproto.ScreenInfo
	win    xproto.Window
	gc     xproto.Gcontext
	font   xproto.Font

	mu        sync.Mutex
	mark      Mark
	until     time.Time // when the mark shown is taken down
	mapped    bool
	suspended bool
	timer     *time.Timer
}

// New opens the overlay on display ("" for DISPLAY).
func New(display string) (Overlay, error) {
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("marks: connect to the X server: %w", err)
	}
	o, err := open(conn)
	if err != nil {
		conn.Close()
		return nil, err
	}
	go o.events()
	return o, nil
}

func open(conn *xgb.Conn) (*x11, error) {
	if err := shape.Init(conn); err != nil {
		return nil, fmt.Errorf("marks: the X server has no SHAPE extension, so a mark would take clicks: %w", err)
	}
	o := &x11{conn: conn, screen: xproto.Setup(conn).DefaultScreen(conn)}
	var err error
	if o.win, err = xproto.NewWindowId(conn); err != nil {
		return nil, err
	}
	err = xproto.CreateWindowChecked(conn, o.screen.RootDepth, o.win, o.screen.Root, 0, 0, 1, 1, 0,
		xproto.WindowClassInputOutput, o.screen.RootVisual,
		xproto.CwBackPixel|xproto.CwOverrideRedirect|xproto.CwEventMask,
		[]uint32{0, 1, xproto.EventMaskExposure}).Check()
	if err != nil {
		return nil, fmt.Errorf("marks: create the overlay window: %w", err)
	}
	// No input shape: every click goes through to the window below.
	if err := shape.RectanglesChecked(conn, shape.SoSet, shape.SkInput, xproto.ClipOrderingUnsorted, o.win, 0, 0, nil).Check(); err != nil {
		return nil, fmt.Errorf("marks: make the overlay click-through: %w", err)
	}
	if o.font, err = xproto.NewFontId(conn); err != nil {
		return nil, err
	}
	if err := xproto.OpenFontChecked(conn, o.font, uint16(len("fixed")), "fixed").Check(); err != nil {
		return nil, fmt.Errorf("marks: open the fixed font: %w", err)
	}
	if o.gc, err = xproto.NewGcontextId(conn); err != nil {
		return nil, err
	}
	err = xproto.CreateGCChecked(conn, o.gc, xproto.Drawable(o.win), xproto.GcForeground|xproto.GcBackground|xproto.GcFont,
		[]uint32{o.pixel(color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}), 0, uint32(o.font)}).Check()
	if err != nil {
		return nil, fmt.Errorf("marks: create the label's graphics context: %w", err)
	}
	return o, nil
}

// pixel is c in the root visual (TrueColor).
func (o *x11) pixel(c color.RGBA) uint32 {
	for _, d := range o.screen.AllowedDepths {
		for _, v := range d.Visuals {
			if v.VisualId == o.screen.RootVisual {
				return uint32(c.R)<<bits.TrailingZeros32(v.RedMask) | uint32(c.G)<<bits.TrailingZeros32(v.GreenMask) |
					uint32(c.B)<<bits.TrailingZeros32(v.BlueMask)
			}
		}
	}
	return 0
}

// events redraws the label when the server asks.
func (o *x11) events() {
	for {
		ev, err := o.conn.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		if _, ok := ev.(xproto.ExposeEvent); ok {
			o.mu.Lock()
			o.label()
			o.mu.Unlock()
		}
	}
}

func asciiLabel(s string) string {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if len(b) == maxLabel {
			break
		}
		if r < 0x20 || r > 0x7e {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return string(b)
}

// geometry is the window's rectangle for m, and the label's width.
func geometry(m Mark) (image.Rectangle, int) {
	lw := len(asciiLabel(m.Label))*charW + 6
	w := max(m.Box.Dx(), lw)
	return image.Rect(m.Box.Min.X, m.Box.Min.Y-labelH, m.Box.Min.X+w, m.Box.Max.Y), lw
}

func (o *x11) Show(m Mark) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if m.Box.Dx() < 2*thickness+1 || m.Box.Dy() < 2*thickness+1 {
		return errors.New("marks: the box is too small to frame")
	}
	r, lw := geometry(m)
	bw, bh := int16(m.Box.Dx()), int16(m.Box.Dy())
	t := int16(thickness)
	rects := []xproto.Rectangle{
		{X: 0, Y: 0, Width: uint16(lw), Height: labelH},                  // the label
		{X: 0, Y: labelH, Width: uint16(bw), Height: uint16(t)},          // top
		{X: 0, Y: labelH + bh - t, Width: uint16(bw), Height: uint16(t)}, // bottom
		{X: 0, Y: labelH, Width: uint16(t), Height: uint16(bh)},          // left
		{X: bw - t, Y: labelH, Width: uint16(t), Height: uint16(bh)},     // right
	}
	xproto.ChangeWindowAttributes(o.conn, o.win, xproto.CwBackPixel, []uint32{o.pixel(m.Color)})
	xproto.ChangeGC(o.conn, o.gc, xproto.GcBackground, []uint32{o.pixel(m.Color)})
	xproto.ConfigureWindow(o.conn, o.win,
		xproto.ConfigWindowX|xproto.ConfigWindowY|xproto.ConfigWindowWidth|xproto.ConfigWindowHeight|xproto.ConfigWindowStackMode,
		[]uint32{uint32(int32(r.Min.X)), uint32(int32(r.Min.Y)), uint32(r.Dx()), uint32(r.Dy()), xproto.StackModeAbove})
	if err := shape.RectanglesChecked(o.conn, shape.SoSet, shape.SkBounding, xproto.ClipOrderingUnsorted, o.win, 0, 0, rects).Check(); err != nil {
		return fmt.Errorf("marks: shape the mark: %w", err)
	}
	o.mark, o.until = m, time.Now().Add(showFor)
	if !o.suspended {
		o.show()
	}
	if o.timer != nil {
		o.timer.Stop()
	}
	o.timer = time.AfterFunc(showFor, func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		if time.Now().After(o.until) || time.Now().Equal(o.until) {
			o.hide()
		}
	})
	return o.sync()
}

// show maps the window on top and draws its label; o.mu is held.
func (o *x11) show() {
	xproto.MapWindow(o.conn, o.win)
	xproto.ConfigureWindow(o.conn, o.win, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove})
	o.mapped = true
	o.label()
}

func (o *x11) hide() {
	if o.mapped {
		xproto.UnmapWindow(o.conn, o.win)
		o.mapped = false
	}
}

func (o *x11) label() {
	if !o.mapped {
		return
	}
	text := asciiLabel(o.mark.Label)
	xproto.ImageText8(o.conn, byte(len(text)), xproto.Drawable(o.win), o.gc, 3, labelH-3, text)
}

// sync waits until the server has done every request sent: a grab on
// another connection then sees the overlay as it now is.
func (o *x11) sync() error {
	_, err := xproto.GetInputFocus(o.conn).Reply()
	return err
}

func (o *x11) Suspend() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.suspended = true
	o.hide()
	_ = o.sync()
}

func (o *x11) Resume() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.suspended = false
	if time.Now().Before(o.until) {
		o.show()
		_ = o.sync()
	}
}

func (o *x11) Close() error {
	o.mu.Lock()
	if o.timer != nil {
		o.timer.Stop()
	}
	o.mu.Unlock()
	xproto.DestroyWindow(o.conn, o.win)
	_ = o.sync()
	o.conn.Close()
	return nil
}
