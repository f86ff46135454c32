package wine

import (
	"errors"
	"fmt"
	"os/exec"
	"testing"
	"time"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"
)

var (
	procFindWindowEx = win32.User32.NewProc("FindWindowExW")
	procMoveWindow   = win32.User32.NewProc("MoveWindow")
	procSendMessage  = win32.User32.NewProc("SendMessageW")
)

const (
	wmGetText       = 0x000D
	wmGetTextLength = 0x000E
	emGetSel        = 0x00B0
)

// NotepadState is what notepad's edit control holds: its text and the
// selection, "sel START END" then the text on the next line. A test
// playing a person waits on it, as a person waits to see what they typed
// before reaching for the mouse: a busy Wine delivers keys later than
// pointer moves, and a click sent before the keys land reorders them.
func NotepadState(notepad windows.HWND) string {
	class, _ := windows.UTF16PtrFromString("Edit")
	edit, _, _ := procFindWindowEx.Call(uintptr(notepad), 0, uintptr(unsafe.Pointer(class)), 0)
	if edit == 0 {
		return ""
	}
	n, _, _ := procSendMessage.Call(edit, wmGetTextLength, 0, 0)
	buf := make([]uint16, n+1)
	procSendMessage.Call(edit, wmGetText, n+1, uintptr(unsafe.Pointer(&buf[0])))
	var start, end uint32
	procSendMessage.Call(edit, emGetSel, uintptr(unsafe.Pointer(&start)), uintptr(unsafe.Pointer(&end)))
	return fmt.Sprintf("sel %d %d\n%s", start, end, windows.UTF16ToString(buf))
}

// OpenNotepad starts notepad and returns it once its window is visible,
// moved to x, y and sized w by h, so that a test knows where to click.
func OpenNotepad(x, y, w, h int) (*exec.Cmd, windows.HWND, error) {
	cmd := exec.Command("notepad.exe")
	if err := cmd.Start(); err != nil {
		return nil, 0, fmt.Errorf("start notepad: %w", err)
	}
	class, _ := windows.UTF16PtrFromString("Notepad")
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		// This notepad's window, not one an earlier test left.
		for hwnd := uintptr(0); ; {
			hwnd, _, _ = procFindWindowEx.Call(0, hwnd, uintptr(unsafe.Pointer(class)), 0)
			if hwnd == 0 {
				break
			}
			var pid uint32
			_, _ = windows.GetWindowThreadProcessId(windows.HWND(hwnd), &pid)
			if int(pid) != cmd.Process.Pid || !windows.IsWindowVisible(windows.HWND(hwnd)) {
				continue
			}
			if r, _, err := procMoveWindow.Call(hwnd, uintptr(x), uintptr(y), uintptr(w), uintptr(h), 1); r == 0 {
				return cmd, 0, fmt.Errorf("move notepad's window: %w", err)
			}
			return cmd, windows.HWND(hwnd), nil
		}
	}
	return cmd, 0, errors.New("notepad opened no window in 30 s")
}

// Notepad is OpenNotepad for a Windows-side test: notepad is killed when
// the test ends.
func Notepad(t testing.TB, x, y, w, h int) windows.HWND {
	t.Helper()
	cmd, hwnd, err := OpenNotepad(x, y, w, h)
	if cmd != nil {
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
	if err != nil {
		t.Fatal(err)
	}
	return hwnd
}
