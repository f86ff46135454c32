package cocoa

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Frameworks, opened once.
const (
	pathCoreFoundation = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
	pathCoreGraphics   = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
	pathAppKit         = "/System/Library/Frameworks/AppKit.framework/AppKit"
	pathObjC           = "/usr/lib/libobjc.A.dylib"
)

// CGPoint and CGRect are CoreGraphics' own, in global display points.
type CGPoint struct{ X, Y float64 }

type CGRect struct{ X, Y, W, H float64 }

// CoreFoundation constants.
const (
	KCFStringEncodingUTF8 uint32 = 0x08000100
	KCFNumberSInt64Type   int    = 4
)

// CoreFoundation.
var (
	CFRelease                         func(uintptr)
	CFRetain                          func(uintptr) uintptr
	CFGetTypeID                       func(uintptr) uint
	CFStringGetTypeID                 func() uint
	CFArrayGetTypeID                  func() uint
	CFEqual                           func(a, b uintptr) bool
	CFStringCreateWithCString         func(alloc uintptr, s string, enc uint32) uintptr
	CFDictionaryCreate                func(alloc uintptr, keys, values *uintptr, n int, keyCB, valueCB uintptr) uintptr
	CFArrayGetCount                   func(uintptr) int
	CFArrayGetValueAtIndex            func(uintptr, int) uintptr
	CFDictionaryGetValue              func(dict, key uintptr) uintptr
	CFNumberGetValue                  func(num uintptr, typ int, out unsafe.Pointer) bool
	CFStringGetLength                 func(uintptr) int
	CFStringGetMaximumSizeForEncoding func(length int, encoding uint32) int
	CFStringGetCString                func(s uintptr, buf *byte, size int, encoding uint32) bool
	CFDataGetBytePtr                  func(uintptr) uintptr
	CFDataGetLength                   func(uintptr) int
	CFMachPortCreateRunLoopSource     func(alloc, port uintptr, order int) uintptr
	CFMachPortInvalidate              func(uintptr)
	CFRunLoopGetCurrent               func() uintptr
	CFRunLoopAddSource                func(rl, src, mode uintptr)
	CFRunLoopRemoveSource             func(rl, src, mode uintptr)
	CFRunLoopRunInMode                func(mode uintptr, seconds float64, returnAfterSource bool) int32
	CFRunLoopStop                     func(uintptr)
	CFRunLoopWakeUp                   func(uintptr)

	KCFRunLoopCommonModes uintptr
	KCFRunLoopDefaultMode uintptr
	KCFBooleanTrue        uintptr
	// Addresses, passed as they are.
	KCFTypeDictionaryKeyCallBacks   uintptr
	KCFTypeDictionaryValueCallBacks uintptr
)

// CoreGraphics.
var (
	CGEventTapCreate                       func(tap, place, options uint32, mask uint64, callback, info uintptr) uintptr
	CGEventTapEnable                       func(tap uintptr, enable bool)
	CGEventGetLocation                     func(uintptr) CGPoint
	CGEventGetIntegerValueField            func(ev uintptr, field uint32) int64
	CGEventGetFlags                        func(uintptr) uint64
	CGEventKeyboardGetUnicodeString        func(ev uintptr, max uint, actual *uint, buf *uint16)
	CGWindowListCopyWindowInfo             func(option, relativeTo uint32) uintptr
	CGRectMakeWithDictionaryRepresentation func(dict uintptr, rect *CGRect) bool
	CGWindowListCreateImage                func(bounds CGRect, option, windowID, imageOption uint32) uintptr
	CGImageGetWidth                        func(uintptr) int
	CGImageGetHeight                       func(uintptr) int
	CGImageGetBytesPerRow                  func(uintptr) int
	CGImageGetBitsPerPixel                 func(uintptr) int
	CGImageGetBitmapInfo                   func(uintptr) uint32
	CGImageGetDataProvider                 func(uintptr) uintptr
	CGDataProviderCopyData                 func(uintptr) uintptr
	CGImageRelease                         func(uintptr)

	// Posting input.
	CGEventCreateMouseEvent                func(source uintptr, typ uint32, pt CGPoint, button uint32) uintptr
	CGEventCreateKeyboardEvent             func(source uintptr, key uint16, down bool) uintptr
	CGEventKeyboardSetUnicodeString        func(ev uintptr, n uint, s *uint16)
	CGEventSetFlags                        func(ev uintptr, flags uint64)
	CGEventPost                            func(tap uint32, ev uintptr)
	CGEventSourceSecondsSinceLastEventType func(state int32, typ uint32) float64

	// Optional (macOS 10.15+): zero when missing.
	CGPreflightListenEventAccess   func() bool
	CGRequestListenEventAccess     func() bool
	CGPreflightScreenCaptureAccess func() bool
	CGRequestScreenCaptureAccess   func() bool

	KCGWindowNumber, KCGWindowLayer, KCGWindowOwnerPID, KCGWindowOwnerName uintptr
	KCGWindowName, KCGWindowBounds                                         uintptr
	CGRectInfinite                                                         CGRect
)

// Objective-C runtime.
var (
	ObjcGetClass        func(name string) uintptr
	SelRegisterName     func(name string) uintptr
	MsgSend             func(id, sel uintptr) uintptr
	MsgSendPtr          func(id, sel, arg uintptr) uintptr
	MsgSendString       func(id, sel uintptr) string
	MsgSendInt32        func(id, sel uintptr) int32
	MsgSendBoolUint     func(id, sel uintptr, arg uint) bool
	MsgSendIDInt32      func(id, sel uintptr, arg int32) uintptr
	AutoreleasePoolPush func() uintptr
	AutoreleasePoolPop  func(uintptr)
)

var loaded Once

// Load opens the frameworks and binds every symbol, once; every function
// here is nil until it returned nil.
func Load() error { return loaded.Do("cocoa", bind) }

func bind() error {
	cf, err := Open(pathCoreFoundation)
	if err != nil {
		return err
	}
	cg, err := Open(pathCoreGraphics)
	if err != nil {
		return err
	}
	objc, err := Open(pathObjC)
	if err != nil {
		return err
	}
	purego.RegisterLibFunc(&CFRelease, cf, "CFRelease")
	purego.RegisterLibFunc(&CFRetain, cf, "CFRetain")
	purego.RegisterLibFunc(&CFGetTypeID, cf, "CFGetTypeID")
	purego.RegisterLibFunc(&CFStringGetTypeID, cf, "CFStringGetTypeID")
	purego.RegisterLibFunc(&CFArrayGetTypeID, cf, "CFArrayGetTypeID")
	purego.RegisterLibFunc(&CFEqual, cf, "CFEqual")
	purego.RegisterLibFunc(&CFStringCreateWithCString, cf, "CFStringCreateWithCString")
	purego.RegisterLibFunc(&CFDictionaryCreate, cf, "CFDictionaryCreate")
	purego.RegisterLibFunc(&CFArrayGetCount, cf, "CFArrayGetCount")
	purego.RegisterLibFunc(&CFArrayGetValueAtIndex, cf, "CFArrayGetValueAtIndex")
	purego.RegisterLibFunc(&CFDictionaryGetValue, cf, "CFDictionaryGetValue")
	purego.RegisterLibFunc(&CFNumberGetValue, cf, "CFNumberGetValue")
	purego.RegisterLibFunc(&CFStringGetLength, cf, "CFStringGetLength")
	purego.RegisterLibFunc(&CFStringGetMaximumSizeForEncoding, cf, "CFStringGetMaximumSizeForEncoding")
	purego.RegisterLibFunc(&CFStringGetCString, cf, "CFStringGetCString")
	purego.RegisterLibFunc(&CFDataGetBytePtr, cf, "CFDataGetBytePtr")
	purego.RegisterLibFunc(&CFDataGetLength, cf, "CFDataGetLength")
	purego.RegisterLibFunc(&CFMachPortCreateRunLoopSource, cf, "CFMachPortCreateRunLoopSource")
	purego.RegisterLibFunc(&CFMachPortInvalidate, cf, "CFMachPortInvalidate")
	purego.RegisterLibFunc(&CFRunLoopGetCurrent, cf, "CFRunLoopGetCurrent")
	purego.RegisterLibFunc(&CFRunLoopAddSource, cf, "CFRunLoopAddSource")
	purego.RegisterLibFunc(&CFRunLoopRemoveSource, cf, "CFRunLoopRemoveSource")
	purego.RegisterLibFunc(&CFRunLoopRunInMode, cf, "CFRunLoopRunInMode")
	purego.RegisterLibFunc(&CFRunLoopStop, cf, "CFRunLoopStop")
	purego.RegisterLibFunc(&CFRunLoopWakeUp, cf, "CFRunLoopWakeUp")
	if KCFRunLoopCommonModes, err = DataSymbol(cf, "KCFRunLoopCommonModes"); err != nil {
		return err
	}
	if KCFRunLoopDefaultMode, err = DataSymbol(cf, "KCFRunLoopDefaultMode"); err != nil {
		return err
	}

	purego.RegisterLibFunc(&CGEventTapCreate, cg, "CGEventTapCreate")
	purego.RegisterLibFunc(&CGEventTapEnable, cg, "CGEventTapEnable")
	purego.RegisterLibFunc(&CGEventGetLocation, cg, "CGEventGetLocation")
	purego.RegisterLibFunc(&CGEventGetIntegerValueField, cg, "CGEventGetIntegerValueField")
	purego.RegisterLibFunc(&CGEventGetFlags, cg, "CGEventGetFlags")
	purego.RegisterLibFunc(&CGEventKeyboardGetUnicodeString, cg, "CGEventKeyboardGetUnicodeString")
	purego.RegisterLibFunc(&CGWindowListCopyWindowInfo, cg, "CGWindowListCopyWindowInfo")
	purego.RegisterLibFunc(&CGRectMakeWithDictionaryRepresentation, cg, "CGRectMakeWithDictionaryRepresentation")
	purego.RegisterLibFunc(&CGImageGetWidth, cg, "CGImageGetWidth")
	purego.RegisterLibFunc(&CGImageGetHeight, cg, "CGImageGetHeight")
	purego.RegisterLibFunc(&CGImageGetBytesPerRow, cg, "CGImageGetBytesPerRow")
	purego.RegisterLibFunc(&CGImageGetBitsPerPixel, cg, "CGImageGetBitsPerPixel")
	purego.RegisterLibFunc(&CGImageGetBitmapInfo, cg, "CGImageGetBitmapInfo")
	purego.RegisterLibFunc(&CGImageGetDataProvider, cg, "CGImageGetDataProvider")
	purego.RegisterLibFunc(&CGDataProviderCopyData, cg, "CGDataProviderCopyData")
	purego.RegisterLibFunc(&CGImageRelease, cg, "CGImageRelease")
	purego.RegisterLibFunc(&CGEventCreateMouseEvent, cg, "CGEventCreateMouseEvent")
	purego.RegisterLibFunc(&CGEventCreateKeyboardEvent, cg, "CGEventCreateKeyboardEvent")
	purego.RegisterLibFunc(&CGEventKeyboardSetUnicodeString, cg, "CGEventKeyboardSetUnicodeString")
	purego.RegisterLibFunc(&CGEventSetFlags, cg, "CGEventSetFlags")
	purego.RegisterLibFunc(&CGEventPost, cg, "CGEventPost")
	purego.RegisterLibFunc(&CGEventSourceSecondsSinceLastEventType, cg, "CGEventSourceSecondsSinceLastEventType")
	// Obsoleted in the macOS 15 SDK (ScreenCaptureKit replaces it) but
	// still exported; optional so that its absence costs frames only.
	Optional(&CGWindowListCreateImage, cg, "CGWindowListCreateImage")
	Optional(&CGPreflightListenEventAccess, cg, "CGPreflightListenEventAccess")
	Optional(&CGRequestListenEventAccess, cg, "CGRequestListenEventAccess")
	Optional(&CGPreflightScreenCaptureAccess, cg, "CGPreflightScreenCaptureAccess")
	Optional(&CGRequestScreenCaptureAccess, cg, "CGRequestScreenCaptureAccess")
	for _, k := range []struct {
		dst  *uintptr
		name string
	}{
		{&KCGWindowNumber, "KCGWindowNumber"}, {&KCGWindowLayer, "KCGWindowLayer"},
		{&KCGWindowOwnerPID, "KCGWindowOwnerPID"}, {&KCGWindowOwnerName, "KCGWindowOwnerName"},
		{&KCGWindowName, "KCGWindowName"}, {&KCGWindowBounds, "KCGWindowBounds"},
	} {
		if *k.dst, err = DataSymbol(cg, k.name); err != nil {
			return err
		}
	}
	// CGRectInfinite is a CGRect constant, not a pointer.
	addr, err := purego.Dlsym(cg, "CGRectInfinite")
	if err != nil {
		return fmt.Errorf("CGRectInfinite: %w", err)
	}
	CGRectInfinite = **(**CGRect)(unsafe.Pointer(&addr))

	purego.RegisterLibFunc(&ObjcGetClass, objc, "objc_getClass")
	purego.RegisterLibFunc(&SelRegisterName, objc, "sel_registerName")
	purego.RegisterLibFunc(&MsgSend, objc, "objc_msgSend")
	purego.RegisterLibFunc(&MsgSendPtr, objc, "objc_msgSend")
	purego.RegisterLibFunc(&MsgSendString, objc, "objc_msgSend")
	purego.RegisterLibFunc(&MsgSendInt32, objc, "objc_msgSend")
	purego.RegisterLibFunc(&MsgSendBoolUint, objc, "objc_msgSend")
	purego.RegisterLibFunc(&MsgSendIDInt32, objc, "objc_msgSend")
	purego.RegisterLibFunc(&AutoreleasePoolPush, objc, "objc_autoreleasePoolPush")
	purego.RegisterLibFunc(&AutoreleasePoolPop, objc, "objc_autoreleasePoolPop")
	// NSWorkspace lives in AppKit; loading it registers its classes.
	if _, err := Open(pathAppKit); err != nil {
		return err
	}
	return nil
}

// GoString copies a CFString; "" for NULL.
func GoString(s uintptr) string {
	if s == 0 {
		return ""
	}
	n := CFStringGetLength(s)
	if n == 0 {
		return ""
	}
	size := CFStringGetMaximumSizeForEncoding(n, KCFStringEncodingUTF8) + 1
	buf := make([]byte, size)
	if !CFStringGetCString(s, &buf[0], size, KCFStringEncodingUTF8) {
		return ""
	}
	for i, b := range buf {
		if b == 0 {
			return string(buf[:i])
		}
	}
	return string(buf)
}

func CFInt(num uintptr) int64 {
	var v int64
	if num == 0 || !CFNumberGetValue(num, KCFNumberSInt64Type, unsafe.Pointer(&v)) {
		return 0
	}
	return v
}
