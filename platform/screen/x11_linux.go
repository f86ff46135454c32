package screen

import (
	"errors"
	"fmt"
	"image"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// X11 grabs the root window of an X11 screen: through MIT-SHM when the
// server is on this machine and offers it, else with a plain GetImage,
// which sends every pixel through the socket.
type X11 struct {
	mu     sync.Mutex
	conn   *xgb.Conn
	root   xproto.Window
	layout layout
	shm    *shmSeg // nil when grabbing over the socket
	closed bool
}

var _ Grabber = (*X11)(nil)

// NewX11 connects to display ("" means $DISPLAY) and checks that its root
// window's pixels can be read as 32-bit true colour.
func NewX11(display string) (*X11, error) {
	return newX11(display, true)
}

// NewX11Socket is NewX11 without MIT-SHM: every grab crosses the X
// socket, as it does on a remote display. Benchmarks compare the two.
func NewX11Socket(display string) (*X11, error) {
	return newX11(display, false)
}

func newX11(display string, trySHM bool) (*X11, error) {
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("x11 %q: %w: %w", display, ErrUnavailable, err)
	}
	setup := xproto.Setup(conn)
	if conn.DefaultScreen >= len(setup.Roots) {
		conn.Close()
		return nil, fmt.Errorf("x11 %q: no screen %d", display, conn.DefaultScreen)
	}
	screen := setup.Roots[conn.DefaultScreen]
	l, err := rootLayout(setup, &screen)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("x11 %q: %w", display, err)
	}
	x := &X11{conn: conn, root: screen.Root, layout: l}
	if trySHM && localDisplay(display) {
		size := int(screen.WidthInPixels) * int(screen.HeightInPixels) * 4
		// A server without MIT-SHM, or one in another IPC namespace, is
		// still grabbed, only more slowly: the error is not the caller's.
		x.shm, _ = attachSHM(conn, size)
	}
	return x, nil
}

// rootLayout finds the root visual's pixel layout, refusing what it cannot
// convert (palettes, 16-bit and packed 24-bit pixels).
func rootLayout(setup *xproto.SetupInfo, screen *xproto.ScreenInfo) (layout, error) {
	bpp := 0
	for _, f := range setup.PixmapFormats {
		if f.Depth == screen.RootDepth {
			bpp = int(f.BitsPerPixel)
		}
	}
	if bpp != 32 {
		return layout{}, fmt.Errorf("root depth %d is stored in %d bits per pixel; only 32 is supported", screen.RootDepth, bpp)
	}
	for _, d := range screen.AllowedDepths {
		for _, v := range d.Visuals {
			if v.VisualId != screen.RootVisual {
				continue
			}
			if v.Class != xproto.VisualClassTrueColor && v.Class != xproto.VisualClassDirectColor {
				return layout{}, fmt.Errorf("root visual class %d is not true colour", v.Class)
			}
			msb := setup.ImageByteOrder == xproto.ImageOrderMSBFirst
			r, okR := byteOf(v.RedMask, msb)
			g, okG := byteOf(v.GreenMask, msb)
			b, okB := byteOf(v.BlueMask, msb)
			if !okR || !okG || !okB {
				return layout{}, fmt.Errorf("root visual masks %#x/%#x/%#x are not whole bytes", v.RedMask, v.GreenMask, v.BlueMask)
			}
			return layout{r: r, g: g, b: b}, nil
		}
	}
	return layout{}, errors.New("root visual not found in the setup")
}

// SHM reports whether grabs go through MIT-SHM shared memory.
func (x *X11) SHM() bool { return x.shm != nil }

// Grab reads the whole root window as opaque RGBA.
func (x *X11) Grab() (*image.RGBA, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil, errors.New("x11 grab: closed")
	}
	// The size is asked each time: a screen can be resized mid-recording.
	geo, err := xproto.GetGeometry(x.conn, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return nil, fmt.Errorf("x11 grab: root geometry: %w", err)
	}
	w, h := int(geo.Width), int(geo.Height)
	n := w * h * 4
	img := &image.RGBA{Stride: w * 4, Rect: image.Rect(0, 0, w, h)}
	if x.shm != nil && n <= len(x.shm.data) {
		if err := x.shm.getImage(x.conn, x.root, geo.Width, geo.Height); err != nil {
			return nil, fmt.Errorf("x11 grab (shm): %w", err)
		}
		img.Pix = make([]byte, n)
		convert(img.Pix, x.shm.data[:n], x.layout)
		return img, nil
	}
	reply, err := xproto.GetImage(x.conn, xproto.ImageFormatZPixmap, xproto.Drawable(x.root),
		0, 0, geo.Width, geo.Height, ^uint32(0)).Reply()
	if err != nil {
		return nil, fmt.Errorf("x11 grab: %w", err)
	}
	if len(reply.Data) < n {
		return nil, fmt.Errorf("x11 grab: %d bytes for %dx%d pixels", len(reply.Data), w, h)
	}
	// The reply's buffer is ours alone: convert it where it lies.
	img.Pix = reply.Data[:n]
	convert(img.Pix, img.Pix, x.layout)
	return img, nil
}

// Close detaches shared memory and closes the connection; it is safe to
// call twice.
func (x *X11) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.closed {
		return nil
	}
	x.closed = true
	var err error
	if x.shm != nil {
		err = x.shm.detach(x.conn)
	}
	x.conn.Close()
	return err
}
