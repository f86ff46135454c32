package input

import (
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"
)

// The Win32 calls synthetic input makes beyond golang.org/x/sys/windows,
// all declared here.
var (
	procSendInput           = win32.User32.NewProc("SendInput")
	procGetLastInputInfo    = win32.User32.NewProc("GetLastInputInfo")
	procSetForegroundWindow = win32.User32.NewProc("SetForegroundWindow")
	procShowWindow          = win32.User32.NewProc("ShowWindow")
	procIsIconic            = win32.User32.NewProc("IsIconic")
	procVkKeyScanW          = win32.User32.NewProc("VkKeyScanW")
	procGetTickCount        = win32.Kernel32.NewProc("GetTickCount")
)

// Constants from winuser.h.
const (
	inputMouse    = 0
	inputKeyboard = 1

	mouseeventfMove        = 0x0001
	mouseeventfLeftDown    = 0x0002
	mouseeventfLeftUp      = 0x0004
	mouseeventfRightDown   = 0x0008
	mouseeventfRightUp     = 0x0010
	mouseeventfMiddleDown  = 0x0020
	mouseeventfMiddleUp    = 0x0040
	mouseeventfVirtualDesk = 0x4000
	mouseeventfAbsolute    = 0x8000

	keyeventfExtendedKey = 0x0001
	keyeventfKeyUp       = 0x0002
	keyeventfUnicode     = 0x0004

	smXVirtualScreen  = 76
	smYVirtualScreen  = 77
	smCXVirtualScreen = 78
	smCYVirtualScreen = 79

	swRestore = 9
)

// mouseInput is INPUT with its MOUSEINPUT arm; Go aligns mi as C aligns
// the union, on 32- and 64-bit Windows.
type mouseInput struct {
	typ uint32
	mi  struct {
		dx, dy    int32
		mouseData uint32
		flags     uint32
		time      uint32
		extra     uintptr
	}
}

// keyInput is INPUT with its KEYBDINPUT arm, padded to INPUT's size (the
// MOUSEINPUT arm is 8 bytes longer).
type keyInput struct {
	typ uint32
	ki  struct {
		vk, scan uint16
		flags    uint32
		time     uint32
		extra    uintptr
	}
	_ [8]byte
}

func sendMouse(in []mouseInput) error {
	return sendInput(len(in), unsafe.Pointer(&in[0]), unsafe.Sizeof(in[0]))
}

func sendKeys(in []keyInput) error {
	return sendInput(len(in), unsafe.Pointer(&in[0]), unsafe.Sizeof(in[0]))
}

func sendInput(n int, p unsafe.Pointer, size uintptr) error {
	r, _, err := procSendInput.Call(uintptr(n), uintptr(p), size)
	if int(r) != n {
		return err
	}
	return nil
}

// lastInputTicks is GetLastInputInfo's time of the last input, in
// GetTickCount milliseconds, and the tick count now.
func lastInputTicks() (last, now uint32, err error) {
	info := struct{ size, time uint32 }{size: 8}
	if r, _, e := procGetLastInputInfo.Call(uintptr(unsafe.Pointer(&info))); r == 0 {
		return 0, 0, e
	}
	t, _, _ := procGetTickCount.Call()
	return info.time, uint32(t), nil
}

// vkKeyScan returns the virtual key and whether Shift is needed to type r
// on the current layout.
func vkKeyScan(r rune) (vk uint16, shift, ok bool) {
	v, _, _ := procVkKeyScanW.Call(uintptr(uint16(r)))
	if int16(v) == -1 {
		return 0, false, false
	}
	return uint16(v & 0xff), v&0x100 != 0, true
}
