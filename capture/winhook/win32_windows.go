package winhook

import (
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"
)

// The Win32 calls this package makes beyond golang.org/x/sys/windows, all
// declared here.
var (
	procSetWindowsHookExW   = win32.User32.NewProc("SetWindowsHookExW")
	procUnhookWindowsHookEx = win32.User32.NewProc("UnhookWindowsHookEx")
	procCallNextHookEx      = win32.User32.NewProc("CallNextHookEx")
	procGetMessageW         = win32.User32.NewProc("GetMessageW")
	procPeekMessageW        = win32.User32.NewProc("PeekMessageW")
	procPostThreadMessageW  = win32.User32.NewProc("PostThreadMessageW")
	procOpenInputDesktop    = win32.User32.NewProc("OpenInputDesktop")
	procCloseDesktop        = win32.User32.NewProc("CloseDesktop")
)

// Constants from winuser.h.
const (
	whKeyboardLL = 13
	whMouseLL    = 14
	hcAction     = 0

	wmQuit        = 0x0012
	wmUser        = 0x0400
	wmKeyDown     = 0x0100
	wmKeyUp       = 0x0101
	wmSysKeyDown  = 0x0104
	wmSysKeyUp    = 0x0105
	wmLButtonDown = 0x0201
	wmRButtonDown = 0x0204
	wmMButtonDown = 0x0207

	llmhfInjected        = 0x01
	llmhfLowerILInjected = 0x02
	llkhfExtended        = 0x01
	llkhfLowerILInjected = 0x02
	llkhfInjected        = 0x10

	pmNoRemove = 0

	desktopReadObjects = 0x0001
)

// msllhookstruct is MSLLHOOKSTRUCT.
type msllhookstruct struct {
	X, Y      int32
	MouseData uint32
	Flags     uint32
	Time      uint32
	ExtraInfo uintptr
}

// kbdllhookstruct is KBDLLHOOKSTRUCT.
type kbdllhookstruct struct {
	VKCode    uint32
	ScanCode  uint32
	Flags     uint32
	Time      uint32
	ExtraInfo uintptr
}

// msg is MSG.
type msg struct {
	HWnd    uintptr
	Message uint32
	WParam  uintptr
	LParam  uintptr
	Time    uint32
	X, Y    int32
	Private uint32
}

func setWindowsHookEx(id int, fn uintptr) (uintptr, error) {
	h, _, err := procSetWindowsHookExW.Call(uintptr(id), fn, 0, 0)
	if h == 0 {
		return 0, err
	}
	return h, nil
}

func unhookWindowsHookEx(h uintptr) {
	procUnhookWindowsHookEx.Call(h)
}

func callNextHookEx(code, wParam, lParam uintptr) uintptr {
	r, _, _ := procCallNextHookEx.Call(0, code, wParam, lParam)
	return r
}

// getMessage returns 1 for a message, 0 for WM_QUIT, -1 on an error.
func getMessage(m *msg) int32 {
	r, _, _ := procGetMessageW.Call(uintptr(unsafe.Pointer(m)), 0, 0, 0)
	return int32(r)
}

// ensureQueue makes the calling thread's message queue exist, so that a
// message posted to it is not lost.
func ensureQueue() {
	var m msg
	procPeekMessageW.Call(uintptr(unsafe.Pointer(&m)), 0, wmUser, wmUser, pmNoRemove)
}

func postThreadMessage(tid uint32, message uint32) error {
	r, _, err := procPostThreadMessageW.Call(uintptr(tid), uintptr(message), 0, 0)
	if r == 0 {
		return err
	}
	return nil
}

// cursorPos returns the pointer's position on the virtual screen.
func cursorPos() (x, y int) {
	x, y, _ = win32.CursorPos()
	return x, y
}

// rootWindowAt returns the top-level window at screen point x, y, or 0.
func rootWindowAt(x, y int32) uintptr {
	h := win32.WindowFromPoint(int(x), int(y))
	if h == 0 {
		return 0
	}
	if root := win32.Ancestor(h, win32.GARoot); root != 0 {
		return uintptr(root)
	}
	return uintptr(h)
}

// windowText returns a window's title.
func windowText(h uintptr) string { return win32.WindowText(windows.HWND(h)) }

// imageName returns the file name of the program that owns window h, such
// as "notepad.exe", or "".
func imageName(h uintptr) string {
	var pid uint32
	if _, err := windows.GetWindowThreadProcessId(windows.HWND(h), &pid); err != nil || pid == 0 {
		return ""
	}
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(p)
	var buf [1024]uint16
	n := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(p, 0, &buf[0], &n); err != nil {
		return ""
	}
	path := windows.UTF16ToString(buf[:n])
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '\\' || path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}

// interactiveDesktop reports whether this process can see the desktop
// that receives input (not so in a service or a locked session).
func interactiveDesktop() error {
	h, _, err := procOpenInputDesktop.Call(0, 0, desktopReadObjects)
	if h == 0 {
		return err
	}
	procCloseDesktop.Call(h)
	return nil
}
