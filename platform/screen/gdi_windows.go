package screen

import (
	"errors"
	"fmt"
	"image"
	"runtime"
	"sync"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"
)

// The GDI and user32 calls of this file, all declared here.
var (
	procCreateCompatibleDC = win32.Gdi32.NewProc("CreateCompatibleDC")
	procCreateDIBSection   = win32.Gdi32.NewProc("CreateDIBSection")
	procSelectObject       = win32.Gdi32.NewProc("SelectObject")
	procDeleteObject       = win32.Gdi32.NewProc("DeleteObject")
	procDeleteDC           = win32.Gdi32.NewProc("DeleteDC")
	procBitBlt             = win32.Gdi32.NewProc("BitBlt")
	procGdiFlush           = win32.Gdi32.NewProc("GdiFlush")

	procGetDC         = win32.User32.NewProc("GetDC")
	procGetWindowDC   = win32.User32.NewProc("GetWindowDC")
	procReleaseDC     = win32.User32.NewProc("ReleaseDC")
	procGetWindowRect = win32.User32.NewProc("GetWindowRect")
	procPrintWindow   = win32.User32.NewProc("PrintWindow")
)

// Constants from winuser.h and wingdi.h.
const (
	smXVirtualScreen  = 76
	smYVirtualScreen  = 77
	smCXVirtualScreen = 78
	smCYVirtualScreen = 79

	srcCopy             = 0x00CC0020
	captureBlt          = 0x40000000 // layered windows too
	pwRenderFullContent = 2          // DirectComposition and GPU content too
	biRGB               = 0
	dibRGBColors        = 0
)

// bitmapInfo is a BITMAPINFO with a BITMAPINFOHEADER and no colour table.
type bitmapInfo struct {
	size                   uint32
	width, height          int32
	planes, bitCount       uint16
	compression, sizeImage uint32
	xPelsPerM, yPelsPerM   int32
	clrUsed, clrImportant  uint32
	_                      [4]byte // bmiColors[1]
}

// dib is a memory DC holding a 32-bit top-down DIB section, whose pixels
// this process reads directly.
type dib struct {
	dc, bitmap, old uintptr
	bits            unsafe.Pointer
	w, h            int
}

func newDIB(w, h int) (*dib, error) {
	screen, _, err := procGetDC.Call(0)
	if screen == 0 {
		return nil, fmt.Errorf("GetDC(screen): %w", err)
	}
	defer procReleaseDC.Call(0, screen)
	d := &dib{w: w, h: h}
	if d.dc, _, err = procCreateCompatibleDC.Call(screen); d.dc == 0 {
		return nil, fmt.Errorf("CreateCompatibleDC: %w", err)
	}
	bi := bitmapInfo{width: int32(w), height: -int32(h), planes: 1, bitCount: 32, compression: biRGB} // negative: top-down
	bi.size = 40
	d.bitmap, _, err = procCreateDIBSection.Call(screen, uintptr(unsafe.Pointer(&bi)), dibRGBColors,
		uintptr(unsafe.Pointer(&d.bits)), 0, 0)
	if d.bitmap == 0 || d.bits == nil {
		procDeleteDC.Call(d.dc)
		return nil, fmt.Errorf("CreateDIBSection %dx%d: %w", w, h, err)
	}
	d.old, _, _ = procSelectObject.Call(d.dc, d.bitmap)
	return d, nil
}

// image converts the DIB's pixels into a new RGBA image, once GDI has
// finished drawing into them.
func (d *dib) image() (*image.RGBA, error) {
	procGdiFlush.Call()
	return fromBGRA(unsafe.Slice((*byte)(d.bits), d.w*d.h*4), d.w, d.h, d.w*4)
}

func (d *dib) free() {
	procSelectObject.Call(d.dc, d.old)
	procDeleteObject.Call(d.bitmap)
	procDeleteDC.Call(d.dc)
}

// GDI grabs the whole Windows virtual screen (every monitor) with BitBlt
// into a DIB section made once and reused while the screen keeps its size.
// Grab and Close are safe for concurrent use.
type GDI struct {
	mu     sync.Mutex
	dib    *dib
	closed bool
}

var _ Grabber = (*GDI)(nil)

// NewGDI prepares a grabber of the virtual screen's current size.
func NewGDI() (*GDI, error) {
	_, _, w, h := virtualScreen()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("gdi: %w: the virtual screen is %dx%d", ErrUnavailable, w, h)
	}
	d, err := newDIB(w, h)
	if err != nil {
		return nil, fmt.Errorf("gdi: %w: %w", ErrUnavailable, err)
	}
	return &GDI{dib: d}, nil
}

func virtualScreen() (x, y, w, h int) {
	m := func(i int) int { return win32.SystemMetric(i) }
	return m(smXVirtualScreen), m(smYVirtualScreen), m(smCXVirtualScreen), m(smCYVirtualScreen)
}

// Grab copies the virtual screen. It fails while the screen cannot be read
// (a locked workstation, the secure desktop of a UAC prompt).
func (g *GDI) Grab() (*image.RGBA, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return nil, errors.New("gdi grab: closed")
	}
	// The size is asked each time: a monitor can come or go mid-recording.
	x, y, w, h := virtualScreen()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("gdi grab: the virtual screen is %dx%d", w, h)
	}
	if w != g.dib.w || h != g.dib.h {
		d, err := newDIB(w, h)
		if err != nil {
			return nil, fmt.Errorf("gdi grab: %w", err)
		}
		g.dib.free()
		g.dib = d
	}
	// A screen DC must be released by the thread that got it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	screen, _, err := procGetDC.Call(0)
	if screen == 0 {
		return nil, fmt.Errorf("gdi grab: GetDC(screen): %w", err)
	}
	ok, _, err := procBitBlt.Call(g.dib.dc, 0, 0, uintptr(w), uintptr(h), screen,
		uintptr(x), uintptr(y), srcCopy|captureBlt)
	procReleaseDC.Call(0, screen)
	if ok == 0 {
		return nil, fmt.Errorf("gdi grab: BitBlt %dx%d: %w", w, h, err)
	}
	img, err := g.dib.image()
	if err != nil {
		return nil, fmt.Errorf("gdi grab: %w", err)
	}
	return img, nil
}

// Close frees the DIB section and its DC. It is safe to call twice.
func (g *GDI) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		g.dib.free()
	}
	return nil
}

// GrabWindow copies one window, frame included. PrintWindow asks the
// window to draw itself into a bitmap, so windows covering it do not
// matter: with PW_RENDERFULLCONTENT (Windows 8.1 and later, which includes
// what a window draws with DirectComposition or the GPU), else plainly.
// Where the window draws nothing that way (Wine 8 delivers PrintWindow's
// WM_PRINT to another process with a DC that process cannot draw into),
// the window's pixels are copied off the screen with BitBlt, which sees
// only its uncovered part.
func GrabWindow(hwnd uintptr) (*image.RGBA, error) {
	img, _, err := grabWindow(hwnd)
	return img, err
}

// grabWindow also says how the window was copied.
func grabWindow(hwnd uintptr) (*image.RGBA, string, error) {
	var r windows.Rect
	if ok, _, err := procGetWindowRect.Call(hwnd, uintptr(unsafe.Pointer(&r))); ok == 0 {
		return nil, "", fmt.Errorf("gdi window %#x: GetWindowRect: %w", hwnd, err)
	}
	w, h := int(r.Right-r.Left), int(r.Bottom-r.Top)
	if w <= 0 || h <= 0 {
		return nil, "", fmt.Errorf("gdi window %#x: it is %dx%d", hwnd, w, h)
	}
	d, err := newDIB(w, h)
	if err != nil {
		return nil, "", fmt.Errorf("gdi window %#x: %w", hwnd, err)
	}
	defer d.free()
	pix := unsafe.Slice((*uint32)(d.bits), w*h)
	how := ""
	for _, f := range []struct {
		flags uintptr
		name  string
	}{{pwRenderFullContent, "PrintWindow(PW_RENDERFULLCONTENT)"}, {0, "PrintWindow"}} {
		fill(pix, untouched)
		if ok, _, _ := procPrintWindow.Call(hwnd, d.dc, f.flags); ok != 0 {
			procGdiFlush.Call()
			if drawn(pix) {
				how = f.name
				break
			}
		}
	}
	if how == "" {
		if err := d.copyWindow(hwnd); err != nil {
			return nil, "", fmt.Errorf("gdi window %#x: PrintWindow drew nothing, and %w", hwnd, err)
		}
		how = "BitBlt"
	}
	img, err := d.image()
	if err != nil {
		return nil, "", fmt.Errorf("gdi window %#x: %w", hwnd, err)
	}
	return img, how, nil
}

// untouched fills a bitmap before PrintWindow, to tell whether the window
// drew into it (it returns TRUE either way): no window paints every pixel
// this colour with this fourth byte.
const untouched = 0x5a01f2a5

func fill(pix []uint32, v uint32) {
	for i := range pix {
		pix[i] = v
	}
}

func drawn(pix []uint32) bool {
	for _, p := range pix {
		if p != untouched {
			return true
		}
	}
	return false
}

// copyWindow copies the window's on-screen pixels into the DIB.
func (d *dib) copyWindow(hwnd uintptr) error {
	// A window DC must be released by the thread that got it.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wdc, _, err := procGetWindowDC.Call(hwnd)
	if wdc == 0 {
		return fmt.Errorf("GetWindowDC: %w", err)
	}
	defer procReleaseDC.Call(hwnd, wdc)
	if ok, _, err := procBitBlt.Call(d.dc, 0, 0, uintptr(d.w), uintptr(d.h), wdc, 0, 0, srcCopy|captureBlt); ok == 0 {
		return fmt.Errorf("BitBlt from the window: %w", err)
	}
	return nil
}
