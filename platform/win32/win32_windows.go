package win32

import (
	"path/filepath"
	"unicode/utf16"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The system DLLs, loaded from System32 only, on first use.
var (
	User32   = windows.NewLazySystemDLL("user32.dll")
	Kernel32 = windows.NewLazySystemDLL("kernel32.dll")
	Gdi32    = windows.NewLazySystemDLL("gdi32.dll")
	Ole32    = windows.NewLazySystemDLL("ole32.dll")
	OleAut32 = windows.NewLazySystemDLL("oleaut32.dll")
	OleAcc   = windows.NewLazySystemDLL("oleacc.dll")
)

var (
	procWindowFromPoint  = User32.NewProc("WindowFromPoint")
	procGetAncestor      = User32.NewProc("GetAncestor")
	procGetWindowTextW   = User32.NewProc("GetWindowTextW")
	procGetCursorPos     = User32.NewProc("GetCursorPos")
	procGetSystemMetrics = User32.NewProc("GetSystemMetrics")
	procSysStringLen     = OleAut32.NewProc("SysStringLen")
	procSysFreeString    = OleAut32.NewProc("SysFreeString")
)

// GetAncestor flags.
const (
	GAParent    = 1
	GARoot      = 2
	GARootOwner = 3
)

// WindowFromPoint returns the deepest window at screen point x, y, or 0.
// POINT is passed by value: in one register on 64-bit Windows, as two
// arguments on 32-bit.
func WindowFromPoint(x, y int) windows.HWND {
	var h uintptr
	if unsafe.Sizeof(uintptr(0)) == 8 {
		h, _, _ = procWindowFromPoint.Call(uintptr(uint32(int32(x))) | uintptr(uint64(uint32(int32(y))))<<32)
	} else {
		h, _, _ = procWindowFromPoint.Call(uintptr(int32(x)), uintptr(int32(y)))
	}
	return windows.HWND(h)
}

// Ancestor returns h's ancestor by flags (GARoot: its top-level window), or 0.
func Ancestor(h windows.HWND, flags uintptr) windows.HWND {
	r, _, _ := procGetAncestor.Call(uintptr(h), flags)
	return windows.HWND(r)
}

// WindowText returns a window's title. For another process's window it
// reads the cached caption and sends it no message.
func WindowText(h windows.HWND) string {
	var buf [512]uint16
	n, _, _ := procGetWindowTextW.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	return windows.UTF16ToString(buf[:n])
}

// CursorPos is the pointer's position on the virtual screen.
func CursorPos() (x, y int, err error) {
	var pt struct{ X, Y int32 }
	if r, _, e := procGetCursorPos.Call(uintptr(unsafe.Pointer(&pt))); r == 0 {
		return 0, 0, e
	}
	return int(pt.X), int(pt.Y), nil
}

// SystemMetric is GetSystemMetrics(i).
func SystemMetric(i int) int {
	r, _, _ := procGetSystemMetrics.Call(uintptr(i))
	return int(int32(r))
}

// TakeBSTR copies a BSTR into a string and frees it; a NULL BSTR is "".
func TakeBSTR(b *uint16) string {
	if b == nil {
		return ""
	}
	n, _, _ := procSysStringLen.Call(uintptr(unsafe.Pointer(b)))
	s := string(utf16.Decode(unsafe.Slice(b, int(n))))
	FreeBSTR(uintptr(unsafe.Pointer(b)))
	return s
}

// FreeBSTR frees a BSTR.
func FreeBSTR(b uintptr) { procSysFreeString.Call(b) }

// ImageName is process pid's executable name ("notepad.exe"); "" when it
// cannot be read.
func ImageName(pid uint32) string {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(h, 0, &buf[0], &n) != nil {
		return ""
	}
	return filepath.Base(windows.UTF16ToString(buf[:n]))
}
