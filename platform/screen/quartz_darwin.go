package screen

import (
	"errors"
	"image"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/cocoa"
)

// Window image constants.
const (
	optOnScreenOnly    = 1 << 0 // kCGWindowListOptionOnScreenOnly
	nullWindowID       = 0      // kCGNullWindowID
	imageOptionDefault = 0      // kCGWindowImageDefault
)

// Quartz grabs the whole desktop (every display, CGRectInfinite) with
// CGWindowListCreateImage. It needs Screen
// Recording permission: without it macOS returns the wallpaper and menu bar
// only, or no image.
type Quartz struct{}

// NewQuartz checks that grabbing can work here.
func NewQuartz() (*Quartz, error) {
	if err := cocoa.Load(); err != nil {
		return nil, err
	}
	if cocoa.CGWindowListCreateImage == nil {
		return nil, errors.New("screen: CGWindowListCreateImage is missing on this macOS")
	}
	return &Quartz{}, nil
}

// Grab takes one screenshot, in points scaled as the window server renders
// (Retina displays give twice the points).
func (*Quartz) Grab() (*image.RGBA, error) {
	img := cocoa.CGWindowListCreateImage(cocoa.CGRectInfinite, optOnScreenOnly, nullWindowID, imageOptionDefault)
	if img == 0 {
		return nil, errors.New("screen: CGWindowListCreateImage returned no image; is Screen Recording allowed?")
	}
	defer cocoa.CGImageRelease(img)
	w, h := cocoa.CGImageGetWidth(img), cocoa.CGImageGetHeight(img)
	stride, bpp, info := cocoa.CGImageGetBytesPerRow(img), cocoa.CGImageGetBitsPerPixel(img), cocoa.CGImageGetBitmapInfo(img)
	data := cocoa.CGDataProviderCopyData(cocoa.CGImageGetDataProvider(img))
	if data == 0 {
		return nil, errors.New("screen: no pixel data in the grabbed image")
	}
	defer cocoa.CFRelease(data)
	n, ptr := cocoa.CFDataGetLength(data), cocoa.CFDataGetBytePtr(data)
	if n <= 0 || ptr == 0 {
		return nil, errors.New("screen: empty pixel data")
	}
	src := unsafe.Slice(*(**byte)(unsafe.Pointer(&ptr)), n)
	return ToRGBA(src, w, h, stride, bpp, info)
}

// ScreenCaptureAllowed reports whether this process may record the screen
// (CGPreflightScreenCaptureAccess); true on systems older than 10.15.
func ScreenCaptureAllowed() bool {
	if cocoa.Load() != nil {
		return false
	}
	return cocoa.CGPreflightScreenCaptureAccess == nil || cocoa.CGPreflightScreenCaptureAccess()
}

// RequestScreenCapture asks macOS to prompt for Screen Recording
// (CGRequestScreenCaptureAccess); it reports whether access is granted now
// (a grant takes effect after the process restarts).
func RequestScreenCapture() bool {
	if cocoa.Load() != nil {
		return false
	}
	return cocoa.CGRequestScreenCaptureAccess == nil || cocoa.CGRequestScreenCaptureAccess()
}
