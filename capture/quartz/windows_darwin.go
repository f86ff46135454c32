package quartz

import (
	"errors"
	"runtime"

	"github.com/reprise-dev/reprise/capture/x11"
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
	if err := load(); err != nil {
		return nil, err
	}
	arr := cgWindowListCopyWindowInfo(optOnScreenOnly|optExcludeDesktopElements, 0)
	if arr == 0 {
		return nil, errors.New("quartz: the window server listed no windows")
	}
	defer cfRelease(arr)
	n := cfArrayGetCount(arr)
	out := make([]WindowInfo, 0, n)
	for i := range n {
		d := cfArrayGetValueAtIndex(arr, i)
		if d == 0 {
			continue
		}
		w := WindowInfo{
			Number:   uint32(cfInt(cfDictionaryGetValue(d, kCGWindowNumber))),
			Layer:    int(cfInt(cfDictionaryGetValue(d, kCGWindowLayer))),
			OwnerPID: int(cfInt(cfDictionaryGetValue(d, kCGWindowOwnerPID))),
			Owner:    goString(cfDictionaryGetValue(d, kCGWindowOwnerName)),
			Name:     goString(cfDictionaryGetValue(d, kCGWindowName)),
		}
		if b := cfDictionaryGetValue(d, kCGWindowBounds); b != 0 {
			var r cgRect
			if cgRectMakeWithDictionary(b, &r) {
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
	if err := load(); err != nil {
		return "", 0, err
	}
	// Autoreleased objects need a pool on this thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := autoreleasePush()
	defer autoreleasePop(pool)
	cls := objcGetClass("NSWorkspace")
	if cls == 0 {
		return "", 0, errors.New("quartz: no NSWorkspace class")
	}
	ws := msgSend(cls, selRegisterName("sharedWorkspace"))
	app := msgSend(ws, selRegisterName("frontmostApplication"))
	if app == 0 {
		return "", 0, errors.New("quartz: no frontmost application")
	}
	if s := msgSend(app, selRegisterName("localizedName")); s != 0 {
		name = msgSendString(s, selRegisterName("UTF8String"))
	}
	return name, int(msgSendInt32(app, selRegisterName("processIdentifier"))), nil
}

// ActivateApp brings process pid's application to the front
// (NSRunningApplication activateWithOptions:).
func ActivateApp(pid int) error {
	if err := load(); err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pool := autoreleasePush()
	defer autoreleasePop(pool)
	cls := objcGetClass("NSRunningApplication")
	app := msgSendIDInt32(cls, selRegisterName("runningApplicationWithProcessIdentifier:"), int32(pid))
	if app == 0 {
		return errors.New("quartz: no running application with that process id")
	}
	const activateIgnoringOtherApps = 1 << 1
	if !msgSendBoolUint(app, selRegisterName("activateWithOptions:"), activateIgnoringOtherApps) {
		return errors.New("quartz: the application refused activation")
	}
	return nil
}

// resolve names the window an event went to, off the input path: the
// window under a click, else the frontmost window of the process the keys
// went to; the application is that window's owner, else the frontmost one.
func resolve(e Event, w *x11.Window) {
	if list, err := Windows(); err == nil {
		pid := e.PID
		if pid == 0 && e.Kind == KeyDown {
			_, pid, _ = Frontmost()
		}
		if info, ok := PickWindow(list, e.WindowID, pid, e.X, e.Y, e.Kind == MouseDown); ok {
			w.ID, w.App, w.Title = info.Number, info.Owner, info.Name
		}
	}
	if w.App == "" {
		w.App, _, _ = Frontmost()
	}
}
