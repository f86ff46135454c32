package computer

import (
	"context"
	"fmt"
	"image"
	"strings"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/platform/win32"
)

var procGetWindowRect = win32.User32.NewProc("GetWindowRect")

// winDesktop lists the visible titled top-level windows with EnumWindows,
// which walks them in z-order, front first.
type winDesktop struct{}

// OpenDesktop opens this session's desktop.
func OpenDesktop(string) (Desktop, error) { return winDesktop{}, nil }

func (winDesktop) Windows(context.Context) ([]Window, error) {
	var hwnds []windows.HWND
	cb := windows.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
		hwnds = append(hwnds, h)
		return 1
	})
	if err := windows.EnumWindows(cb, nil); err != nil {
		return nil, fmt.Errorf("EnumWindows: %w", err)
	}
	fg := windows.GetForegroundWindow()
	var out []Window
	for _, h := range hwnds {
		title := win32.WindowText(h)
		if !windows.IsWindowVisible(h) || title == "" {
			continue
		}
		var r windows.Rect
		if ok, _, _ := procGetWindowRect.Call(uintptr(h), uintptr(unsafe.Pointer(&r))); ok == 0 {
			continue // gone between the walk and now
		}
		var pid uint32
		_, _ = windows.GetWindowThreadProcessId(h, &pid)
		app := strings.TrimSuffix(strings.ToLower(win32.ImageName(pid)), ".exe")
		out = append(out, Window{
			ID: fmt.Sprintf("0x%x", uintptr(h)), App: app, Title: title, PID: int(pid),
			Bounds:  image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom)),
			Focused: h == fg, Integrity: integrity(pid),
			// The owner by pid and image name; its start time is not read
			// yet (GetProcessTimes), so a reused pid of the same program
			// passes.
			Identity: identity(int(pid), "", app, ""),
		})
	}
	return out, nil
}

// SecureInput: Windows has no system-wide secure-input flag; a password
// field with the focus is read from UI Automation, which is not wired
// here yet (the deny list's built-in credential UIs are refused).
func (winDesktop) SecureInput(context.Context) (bool, error) { return false, nil }

// Integrity levels: the RID of a token's mandatory label.
const (
	integrityUnknown = 0x7fffffff // fails closed: above everything
)

// integrity is process pid's integrity level (0x1000 low, 0x2000 medium,
// 0x3000 high, 0x4000 system). One that cannot be read is taken as above
// reprise's: a process that hides its token is not one to type into.
func integrity(pid uint32) int {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return integrityUnknown
	}
	defer windows.CloseHandle(h)
	var tok windows.Token
	if err := windows.OpenProcessToken(h, windows.TOKEN_QUERY, &tok); err != nil {
		return integrityUnknown
	}
	defer tok.Close()
	return tokenIntegrity(tok)
}

func tokenIntegrity(tok windows.Token) int {
	var n uint32
	_ = windows.GetTokenInformation(tok, windows.TokenIntegrityLevel, nil, 0, &n)
	if n == 0 {
		return integrityUnknown
	}
	buf := make([]byte, n)
	if err := windows.GetTokenInformation(tok, windows.TokenIntegrityLevel, &buf[0], n, &n); err != nil {
		return integrityUnknown
	}
	label := (*windows.Tokenmandatorylabel)(unsafe.Pointer(&buf[0]))
	sid := label.Label.Sid
	if sid == nil || sid.SubAuthorityCount() == 0 {
		return integrityUnknown
	}
	return int(sid.SubAuthority(uint32(sid.SubAuthorityCount()) - 1))
}

// ownIntegrity is reprise's own level, which others are compared with;
// unreadable, it is taken as a standard user's (medium), so that elevated
// apps are still refused.
func ownIntegrity() int {
	if l := tokenIntegrity(windows.GetCurrentProcessToken()); l != integrityUnknown {
		return l
	}
	return 0x2000
}

// Parents returns pid's ancestors, nearest first, from a process
// snapshot: the terminal running reprise among them.
func Parents(pid int) []int {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	parent := map[uint32]uint32{}
	var e windows.ProcessEntry32
	e.Size = uint32(unsafe.Sizeof(e))
	for err := windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		parent[e.ProcessID] = e.ParentProcessID
	}
	var out []int
	for p, ok := parent[uint32(pid)]; ok && p != 0 && len(out) < 32; p, ok = parent[p] {
		out = append(out, int(p))
	}
	return out
}
