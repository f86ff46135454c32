package cocoa

import (
	"errors"
	"runtime"
)

// Window list options.
const (
	optOnScreenOnly           = 1 << 0
	optExcludeDesktopElements = 1 << 4
)

// Windows lists the on-screen windows front to back
// (CGWindowListCopyWindowInfo). Names are empty without Screen Recording
// permission.
func Windows() ([]WindowInfo, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	arr := CGWindowListCopyWindowInfo(optOnScreenOnly|optExcludeDesktopElements, 0)
	if arr == 0 {
		return nil, errors.New("cocoa: the window server listed no windows")
	}
	defer CFRelease(arr)
	n := CFArrayGetCount(arr)
	out := make([]WindowInfo, 0, n)
	for i := range n {
		d := CFArrayGetValueAtIndex(arr, i)
		if d == 0 {
			continue
		}
		w := WindowInfo{
			Number:   uint32(CFInt(CFDictionaryGetValue(d, KCGWindowNumber))),
			Layer:    int(CFInt(CFDictionaryGetValue(d, KCGWindowLayer))),
			OwnerPID: int(CFInt(CFDictionaryGetValue(d, KCGWindowOwnerPID))),
			Owner:    GoString(CFDictionaryGetValue(d, KCGWindowOwnerName)),
			Name:     GoString(CFDictionaryGetValue(d, KCGWindowName)),
		}
		if b := CFDictionaryGetValue(d, KCGWindowBounds); b != 0 {
			var r CGRect
			if CGRectMakeWithDictionaryRepresentation(b, &r) {
				w.Bounds = Rect(r)
			}
		}
		out = append(out, w)
	}
	return out, nil
}

// Frontmost returns the frontmost application's localized name and process
// id (NSWorkspace.sharedWorkspace.frontmostApplication).
func Frontmost() (name string, pid int, err error) {
	if err := Load(); err != nil {
		return "", 0, err
	}
	// Autoreleased objects need a pool on this thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := AutoreleasePoolPush()
	defer AutoreleasePoolPop(pool)
	cls := ObjcGetClass("NSWorkspace")
	if cls == 0 {
		return "", 0, errors.New("cocoa: no NSWorkspace class")
	}
	ws := MsgSend(cls, SelRegisterName("sharedWorkspace"))
	app := MsgSend(ws, SelRegisterName("frontmostApplication"))
	if app == 0 {
		return "", 0, errors.New("cocoa: no frontmost application")
	}
	if s := MsgSend(app, SelRegisterName("localizedName")); s != 0 {
		name = MsgSendString(s, SelRegisterName("UTF8String"))
	}
	return name, int(MsgSendInt32(app, SelRegisterName("processIdentifier"))), nil
}

// ActivateApp brings process pid's application to the front
// (NSRunningApplication activateWithOptions:).
func ActivateApp(pid int) error {
	if err := Load(); err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := AutoreleasePoolPush()
	defer AutoreleasePoolPop(pool)
	cls := ObjcGetClass("NSRunningApplication")
	app := MsgSendIDInt32(cls, SelRegisterName("runningApplicationWithProcessIdentifier:"), int32(pid))
	if app == 0 {
		return errors.New("cocoa: no running application with that process id")
	}
	const activateIgnoringOtherApps = 1 << 1
	if !MsgSendBoolUint(app, SelRegisterName("activateWithOptions:"), activateIgnoringOtherApps) {
		return errors.New("cocoa: the application refused activation")
	}
	return nil
}
