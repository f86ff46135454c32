package quartz

import (
	"errors"
	"image"
	"unsafe"
)

// Window image constants.
const (
	nullWindowID       = 0 // kCGNullWindowID
	imageOptionDefault = 0 // kCGWindowImageDefault
)

// Grabber grabs the whole desktop (every display, CGRectInfinite) with
// CGWindowListCreateImage; it fits capture/frames' Grabber. It needs Screen
// Recording permission: without it macOS returns the wallpaper and menu bar
// only, or no image.
type Grabber struct{}

// NewGrabber checks that grabbing can work here.
func NewGrabber() (*Grabber, error) {
	if err := load(); err != nil {
		return nil, err
	}
	if cgWindowListCreateImage == nil {
		return nil, errors.New("quartz: CGWindowListCreateImage is missing on this macOS")
	}
	return &Grabber{}, nil
}

// Grab takes one screenshot, in points scaled as the window server renders
// (Retina displays give twice the points).
func (*Grabber) Grab() (*image.RGBA, error) {
	img := cgWindowListCreateImage(cgRectInfinite, optOnScreenOnly, nullWindowID, imageOptionDefault)
	if img == 0 {
		return nil, errors.New("quartz: CGWindowListCreateImage returned no image; is Screen Recording allowed?")
	}
	defer cgImageRelease(img)
	w, h := cgImageGetWidth(img), cgImageGetHeight(img)
	stride, bpp, info := cgImageGetBytesPerRow(img), cgImageGetBitsPerPixel(img), cgImageGetBitmapInfo(img)
	data := cgDataProviderCopyData(cgImageGetDataProvider(img))
	if data == 0 {
		return nil, errors.New("quartz: no pixel data in the grabbed image")
	}
	defer cfRelease(data)
	n, ptr := cfDataGetLength(data), cfDataGetBytePtr(data)
	if n <= 0 || ptr == 0 {
		return nil, errors.New("quartz: empty pixel data")
	}
	src := unsafe.Slice(*(**byte)(unsafe.Pointer(&ptr)), n)
	return ToRGBA(src, w, h, stride, bpp, info)
}

// ScreenCaptureAllowed reports whether this process may record the screen
// (CGPreflightScreenCaptureAccess); true on systems older than 10.15.
func ScreenCaptureAllowed() bool {
	if load() != nil {
		return false
	}
	return cgPreflightScreenCaptureAccess == nil || cgPreflightScreenCaptureAccess()
}

// RequestScreenCapture asks macOS to prompt for Screen Recording
// (CGRequestScreenCaptureAccess); it reports whether access is granted now
// (a grant takes effect after the process restarts).
func RequestScreenCapture() bool {
	if load() != nil {
		return false
	}
	return cgRequestScreenCaptureAccess == nil || cgRequestScreenCaptureAccess()
}
