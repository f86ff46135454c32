package input

import (
	"fmt"
	"strings"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/platform/ax/uia"
)

// The Win32 calls that read a field and check a window's owner.
var (
	procGetClassNameW       = win32.User32.NewProc("GetClassNameW")
	procGetWindowLongPtrW   = win32.User32.NewProc("GetWindowLongPtrW")
	procSendMessageTimeoutW = win32.User32.NewProc("SendMessageTimeoutW")
	procWaitForInputIdle    = win32.User32.NewProc("WaitForInputIdle")
)

const (
	wmGetText       = 0x000D
	wmGetTextLength = 0x000E
	smtoAbortIfHung = 0x0002
	gwlStyle        = -16
	esPassword      = 0x0020
	// fieldTimeout bounds each message to a field's window: a hung app
	// does not hang replay.
	fieldTimeoutMs = 500
)

func className(h windows.HWND) string {
	var buf [256]uint16
	n, _, _ := procGetClassNameW.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	return windows.UTF16ToString(buf[:n])
}

// FieldText reads the text of the edit control at x, y with WM_GETTEXT:
// the read-back of a value typed there, exact, where OCR only
// approximates. It never reads a password field.
func (winInput) FieldText(x, y int) (string, error) {
	h := win32.WindowFromPoint(x, y)
	if h == 0 {
		return "", ErrNotAField
	}
	if class := strings.ToLower(className(h)); !strings.Contains(class, "edit") {
		return "", fmt.Errorf("%w (a %s window)", ErrNotAField, className(h))
	}
	index := gwlStyle // a variable: a negative constant does not convert to uintptr
	style, _, _ := procGetWindowLongPtrW.Call(uintptr(h), uintptr(index))
	if style&esPassword != 0 {
		return "", ErrSecretField
	}
	var n uintptr
	if r, _, err := procSendMessageTimeoutW.Call(uintptr(h), wmGetTextLength, 0, 0, smtoAbortIfHung, fieldTimeoutMs,
		uintptr(unsafe.Pointer(&n))); r == 0 {
		return "", fmt.Errorf("WM_GETTEXTLENGTH: %w", err)
	}
	buf := make([]uint16, n+1)
	var got uintptr
	if r, _, err := procSendMessageTimeoutW.Call(uintptr(h), wmGetText, uintptr(len(buf)), uintptr(unsafe.Pointer(&buf[0])),
		smtoAbortIfHung, fieldTimeoutMs, uintptr(unsafe.Pointer(&got))); r == 0 {
		return "", fmt.Errorf("WM_GETTEXT: %w", err)
	}
	return windows.UTF16ToString(buf[:min(int(got), len(buf))]), nil
}

// checkTarget refuses input into window h when its process runs at a
// higher integrity level than reprise: Windows would drop the input
// (UIPI), and the step would seem to run while nothing happened.
func checkTarget(h windows.HWND) error {
	if h == 0 {
		return nil
	}
	var pid uint32
	if _, err := windows.GetWindowThreadProcessId(h, &pid); err != nil || pid == 0 {
		return nil
	}
	return uia.CheckInputTo(pid)
}

// settle waits (briefly) until the process owning window h has taken the
// input just sent and waits for more: the next step, or the end of the
// replay, does not race the app (Wine dropped a last click whose sender
// exited at once).
func settle(h windows.HWND) {
	var pid uint32
	if h == 0 {
		return
	}
	if _, err := windows.GetWindowThreadProcessId(h, &pid); err != nil || pid == 0 {
		return
	}
	p, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return
	}
	defer windows.CloseHandle(p)
	procWaitForInputIdle.Call(uintptr(p), settleTimeoutMs)
}

const settleTimeoutMs = 2000
