package quartz

import (
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/reprise-dev/reprise/internal/dylib"
)

// Frameworks, opened once.
const (
	pathCoreFoundation = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
	pathCoreGraphics   = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
	pathAppKit         = "/System/Library/Frameworks/AppKit.framework/AppKit"
	pathObjC           = "/usr/lib/libobjc.A.dylib"
)

type cgPoint struct{ X, Y float64 }

type cgRect struct{ X, Y, W, H float64 }

// CoreFoundation.
var (
	cfRelease                  func(uintptr)
	cfArrayGetCount            func(uintptr) int
	cfArrayGetValueAtIndex     func(uintptr, int) uintptr
	cfDictionaryGetValue       func(dict, key uintptr) uintptr
	cfNumberGetValue           func(num uintptr, typ int, out unsafe.Pointer) bool
	cfStringGetLength          func(uintptr) int
	cfStringGetMaxSize         func(length int, encoding uint32) int
	cfStringGetCString         func(s uintptr, buf *byte, size int, encoding uint32) bool
	cfDataGetBytePtr           func(uintptr) uintptr
	cfDataGetLength            func(uintptr) int
	cfMachPortCreateRunLoopSrc func(alloc, port uintptr, order int) uintptr
	cfMachPortInvalidate       func(uintptr)
	cfRunLoopGetCurrent        func() uintptr
	cfRunLoopAddSource         func(rl, src, mode uintptr)
	cfRunLoopRemoveSource      func(rl, src, mode uintptr)
	cfRunLoopRunInMode         func(mode uintptr, seconds float64, returnAfterSource bool) int32
	cfRunLoopStop              func(uintptr)
	cfRunLoopWakeUp            func(uintptr)

	kCFRunLoopCommonModes uintptr
	kCFRunLoopDefaultMode uintptr
)

// CoreGraphics.
var (
	cgEventTapCreate            func(tap, place, options uint32, mask uint64, callback, info uintptr) uintptr
	cgEventTapEnable            func(tap uintptr, enable bool)
	cgEventGetLocation          func(uintptr) cgPoint
	cgEventGetIntegerValueField func(ev uintptr, field uint32) int64
	cgEventGetFlags             func(uintptr) uint64
	cgEventKeyboardGetUnicode   func(ev uintptr, max uint, actual *uint, buf *uint16)
	cgWindowListCopyWindowInfo  func(option, relativeTo uint32) uintptr
	cgRectMakeWithDictionary    func(dict uintptr, rect *cgRect) bool
	cgWindowListCreateImage     func(bounds cgRect, option, windowID, imageOption uint32) uintptr
	cgImageGetWidth             func(uintptr) int
	cgImageGetHeight            func(uintptr) int
	cgImageGetBytesPerRow       func(uintptr) int
	cgImageGetBitsPerPixel      func(uintptr) int
	cgImageGetBitmapInfo        func(uintptr) uint32
	cgImageGetDataProvider      func(uintptr) uintptr
	cgDataProviderCopyData      func(uintptr) uintptr
	cgImageRelease              func(uintptr)

	// Optional (macOS 10.15+): zero when missing.
	cgPreflightListenEventAccess   func() bool
	cgRequestListenEventAccess     func() bool
	cgPreflightScreenCaptureAccess func() bool
	cgRequestScreenCaptureAccess   func() bool

	kCGWindowNumber, kCGWindowLayer, kCGWindowOwnerPID, kCGWindowOwnerName uintptr
	kCGWindowName, kCGWindowBounds                                         uintptr
	cgRectInfinite                                                         cgRect
)

// Objective-C runtime.
var (
	objcGetClass    func(name string) uintptr
	selRegisterName func(name string) uintptr
	msgSend         func(id, sel uintptr) uintptr
	msgSendPtr      func(id, sel, arg uintptr) uintptr
	msgSendString   func(id, sel uintptr) string
	msgSendInt32    func(id, sel uintptr) int32
	msgSendBoolUint func(id, sel uintptr, arg uint) bool
	msgSendIDInt32  func(id, sel uintptr, arg int32) uintptr
	autoreleasePush func() uintptr
	autoreleasePop  func(uintptr)
	kCFStringUTF8   uint32 = 0x08000100
	kCFNumberSInt64 int    = 4
)

var loaded dylib.Once

// load opens the frameworks and binds every symbol, once.
func load() error { return loaded.Do("quartz", bind) }

func bind() error {
	cf, err := dylib.Open(pathCoreFoundation)
	if err != nil {
		return err
	}
	cg, err := dylib.Open(pathCoreGraphics)
	if err != nil {
		return err
	}
	objc, err := dylib.Open(pathObjC)
	if err != nil {
		return err
	}
	purego.RegisterLibFunc(&cfRelease, cf, "CFRelease")
	purego.RegisterLibFunc(&cfArrayGetCount, cf, "CFArrayGetCount")
	purego.RegisterLibFunc(&cfArrayGetValueAtIndex, cf, "CFArrayGetValueAtIndex")
	purego.RegisterLibFunc(&cfDictionaryGetValue, cf, "CFDictionaryGetValue")
	purego.RegisterLibFunc(&cfNumberGetValue, cf, "CFNumberGetValue")
	purego.RegisterLibFunc(&cfStringGetLength, cf, "CFStringGetLength")
	purego.RegisterLibFunc(&cfStringGetMaxSize, cf, "CFStringGetMaximumSizeForEncoding")
	purego.RegisterLibFunc(&cfStringGetCString, cf, "CFStringGetCString")
	purego.RegisterLibFunc(&cfDataGetBytePtr, cf, "CFDataGetBytePtr")
	purego.RegisterLibFunc(&cfDataGetLength, cf, "CFDataGetLength")
	purego.RegisterLibFunc(&cfMachPortCreateRunLoopSrc, cf, "CFMachPortCreateRunLoopSource")
	purego.RegisterLibFunc(&cfMachPortInvalidate, cf, "CFMachPortInvalidate")
	purego.RegisterLibFunc(&cfRunLoopGetCurrent, cf, "CFRunLoopGetCurrent")
	purego.RegisterLibFunc(&cfRunLoopAddSource, cf, "CFRunLoopAddSource")
	purego.RegisterLibFunc(&cfRunLoopRemoveSource, cf, "CFRunLoopRemoveSource")
	purego.RegisterLibFunc(&cfRunLoopRunInMode, cf, "CFRunLoopRunInMode")
	purego.RegisterLibFunc(&cfRunLoopStop, cf, "CFRunLoopStop")
	purego.RegisterLibFunc(&cfRunLoopWakeUp, cf, "CFRunLoopWakeUp")
	if kCFRunLoopCommonModes, err = dylib.DataSymbol(cf, "kCFRunLoopCommonModes"); err != nil {
		return err
	}
	if kCFRunLoopDefaultMode, err = dylib.DataSymbol(cf, "kCFRunLoopDefaultMode"); err != nil {
		return err
	}

	purego.RegisterLibFunc(&cgEventTapCreate, cg, "CGEventTapCreate")
	purego.RegisterLibFunc(&cgEventTapEnable, cg, "CGEventTapEnable")
	purego.RegisterLibFunc(&cgEventGetLocation, cg, "CGEventGetLocation")
	purego.RegisterLibFunc(&cgEventGetIntegerValueField, cg, "CGEventGetIntegerValueField")
	purego.RegisterLibFunc(&cgEventGetFlags, cg, "CGEventGetFlags")
	purego.RegisterLibFunc(&cgEventKeyboardGetUnicode, cg, "CGEventKeyboardGetUnicodeString")
	purego.RegisterLibFunc(&cgWindowListCopyWindowInfo, cg, "CGWindowListCopyWindowInfo")
	purego.RegisterLibFunc(&cgRectMakeWithDictionary, cg, "CGRectMakeWithDictionaryRepresentation")
	purego.RegisterLibFunc(&cgImageGetWidth, cg, "CGImageGetWidth")
	purego.RegisterLibFunc(&cgImageGetHeight, cg, "CGImageGetHeight")
	purego.RegisterLibFunc(&cgImageGetBytesPerRow, cg, "CGImageGetBytesPerRow")
	purego.RegisterLibFunc(&cgImageGetBitsPerPixel, cg, "CGImageGetBitsPerPixel")
	purego.RegisterLibFunc(&cgImageGetBitmapInfo, cg, "CGImageGetBitmapInfo")
	purego.RegisterLibFunc(&cgImageGetDataProvider, cg, "CGImageGetDataProvider")
	purego.RegisterLibFunc(&cgDataProviderCopyData, cg, "CGDataProviderCopyData")
	purego.RegisterLibFunc(&cgImageRelease, cg, "CGImageRelease")
	// Obsoleted in the macOS 15 SDK (ScreenCaptureKit replaces it) but
	// still exported; optional so that its absence costs frames only.
	dylib.Optional(&cgWindowListCreateImage, cg, "CGWindowListCreateImage")
	dylib.Optional(&cgPreflightListenEventAccess, cg, "CGPreflightListenEventAccess")
	dylib.Optional(&cgRequestListenEventAccess, cg, "CGRequestListenEventAccess")
	dylib.Optional(&cgPreflightScreenCaptureAccess, cg, "CGPreflightScreenCaptureAccess")
	dylib.Optional(&cgRequestScreenCaptureAccess, cg, "CGRequestScreenCaptureAccess")
	for _, k := range []struct {
		dst  *uintptr
		name string
	}{
		{&kCGWindowNumber, "kCGWindowNumber"}, {&kCGWindowLayer, "kCGWindowLayer"},
		{&kCGWindowOwnerPID, "kCGWindowOwnerPID"}, {&kCGWindowOwnerName, "kCGWindowOwnerName"},
		{&kCGWindowName, "kCGWindowName"}, {&kCGWindowBounds, "kCGWindowBounds"},
	} {
		if *k.dst, err = dylib.DataSymbol(cg, k.name); err != nil {
			return err
		}
	}
	// CGRectInfinite is a CGRect constant, not a pointer.
	addr, err := purego.Dlsym(cg, "CGRectInfinite")
	if err != nil {
		return fmt.Errorf("CGRectInfinite: %w", err)
	}
	cgRectInfinite = **(**cgRect)(unsafe.Pointer(&addr))

	purego.RegisterLibFunc(&objcGetClass, objc, "objc_getClass")
	purego.RegisterLibFunc(&selRegisterName, objc, "sel_registerName")
	purego.RegisterLibFunc(&msgSend, objc, "objc_msgSend")
	purego.RegisterLibFunc(&msgSendPtr, objc, "objc_msgSend")
	purego.RegisterLibFunc(&msgSendString, objc, "objc_msgSend")
	purego.RegisterLibFunc(&msgSendInt32, objc, "objc_msgSend")
	purego.RegisterLibFunc(&msgSendBoolUint, objc, "objc_msgSend")
	purego.RegisterLibFunc(&msgSendIDInt32, objc, "objc_msgSend")
	purego.RegisterLibFunc(&autoreleasePush, objc, "objc_autoreleasePoolPush")
	purego.RegisterLibFunc(&autoreleasePop, objc, "objc_autoreleasePoolPop")
	// NSWorkspace lives in AppKit; loading it registers its classes.
	if _, err := dylib.Open(pathAppKit); err != nil {
		return err
	}
	return nil
}

// goString copies a CFString; "" for NULL.
func goString(s uintptr) string {
	if s == 0 {
		return ""
	}
	n := cfStringGetLength(s)
	if n == 0 {
		return ""
	}
	size := cfStringGetMaxSize(n, kCFStringUTF8) + 1
	buf := make([]byte, size)
	if !cfStringGetCString(s, &buf[0], size, kCFStringUTF8) {
		return ""
	}
	for i, b := range buf {
		if b == 0 {
			return string(buf[:i])
		}
	}
	return string(buf)
}

func cfInt(num uintptr) int64 {
	var v int64
	if num == 0 || !cfNumberGetValue(num, kCFNumberSInt64, unsafe.Pointer(&v)) {
		return 0
	}
	return v
}
