//go:build windows

// Command custform is a plain Win32 form for the Windows end-to-end tests,
// the counterpart of the zenity form the Linux ones drive: a "New customer"
// window at a known place with First Name and Email fields and an OK
// button. OK appends "first|email" as a line to the -out file, clears the
// fields and puts the focus back in First Name, ready for the next one.
// The -ready file it writes once the form is up says where each control's
// centre is on the screen, a line each: "first X Y", "email X Y", "ok X Y".
// With -fields it keeps a file holding what the fields show ("first|email"),
// rewritten on every change, which a test playing a person waits on before
// it moves on (a person sees what they typed). With -log it logs the mouse and key messages it gets and the commands its
// controls send, which a failing test prints (it showed clicks landing on
// OK that replay meant for First Name).
//
//	custform -out Z:\tmp\filed.txt -ready Z:\tmp\ready
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	user32               = windows.NewLazySystemDLL("user32.dll")
	procRegisterClassExW = user32.NewProc("RegisterClassExW")
	procCreateWindowExW  = user32.NewProc("CreateWindowExW")
	procDefWindowProcW   = user32.NewProc("DefWindowProcW")
	procGetMessageW      = user32.NewProc("GetMessageW")
	procTranslateMessage = user32.NewProc("TranslateMessage")
	procDispatchMessageW = user32.NewProc("DispatchMessageW")
	procPostQuitMessage  = user32.NewProc("PostQuitMessage")
	procGetWindowTextW   = user32.NewProc("GetWindowTextW")
	procSetWindowTextW   = user32.NewProc("SetWindowTextW")
	procSetFocus         = user32.NewProc("SetFocus")
	procGetWindowRect    = user32.NewProc("GetWindowRect")
)

const (
	wsOverlapped = 0x00CF0000
	wsVisible    = 0x10000000
	wsChild      = 0x40000000
	wsBorder     = 0x00800000
	wsTabStop    = 0x00010000
	esAutoHScrol = 0x0080
	wmDestroy    = 0x0002
	wmCommand    = 0x0111
	idOK         = 1
	bnClicked    = 0
	enChange     = 0x0300
)

// The form's controls, and where OK files to.
var (
	first, email windows.HWND
	out, fields  string
	debugLog     *os.File
)

func init() { runtime.LockOSThread() } // windows belong to the thread that made them

func main() {
	flag.StringVar(&out, "out", "", "file each OK appends a line to")
	ready := flag.String("ready", "", "file to write once the form is up")
	logTo := flag.String("log", "", "file to log the form's input and commands to")
	flag.StringVar(&fields, "fields", "", "file to keep what the fields show in")
	flag.Parse()
	if *logTo != "" {
		f, err := os.Create(*logTo)
		if err == nil {
			debugLog = f
		}
	}
	if err := run(*ready); err != nil {
		fmt.Fprintln(os.Stderr, "custform:", err)
		os.Exit(1)
	}
}

// stamp is the wall time of a log line, to set beside the replay's own
// log: which input came from which step.
func stamp() string { return time.Now().Format("15:04:05.000") }

func wndProc(h windows.HWND, msg uint32, wParam, lParam uintptr) uintptr {
	switch msg {
	case wmCommand:
		if debugLog != nil {
			fmt.Fprintf(debugLog, "%s WM_COMMAND id %d code %d first=%q email=%q\n", stamp(), wParam&0xffff, wParam>>16, text(first), text(email))
		}
		if wParam&0xffff == idOK && wParam>>16 == bnClicked {
			file()
			return 0
		}
		if wParam>>16 == enChange {
			showFields()
		}
	case wmDestroy:
		procPostQuitMessage.Call(0)
		return 0
	}
	r, _, _ := procDefWindowProcW.Call(uintptr(h), uintptr(msg), wParam, lParam)
	return r
}

func text(h windows.HWND) string {
	var buf [512]uint16
	n, _, _ := procGetWindowTextW.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	return windows.UTF16ToString(buf[:n])
}

// showFields rewrites the -fields file (whole, by a rename) with what the
// fields show.
func showFields() {
	if fields == "" {
		return
	}
	tmp := fields + ".tmp"
	if err := os.WriteFile(tmp, []byte(text(first)+"|"+text(email)), 0o600); err == nil {
		_ = os.Rename(tmp, fields)
	}
}

// file appends the customer and clears the form for the next one.
func file() {
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, err = fmt.Fprintf(f, "%s|%s\n", text(first), text(email))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "custform: file the customer:", err)
	}
	empty, _ := windows.UTF16PtrFromString("")
	for _, h := range []windows.HWND{first, email} {
		procSetWindowTextW.Call(uintptr(h), uintptr(unsafe.Pointer(empty)))
	}
	procSetFocus.Call(uintptr(first))
}

func run(ready string) error {
	class, _ := windows.UTF16PtrFromString("RepriseCustomerForm")
	wc := struct {
		size, style                uint32
		wndProc                    uintptr
		clsExtra, wndExtra         int32
		instance, icon, cursor, bg uintptr
		menuName, className        *uint16
		iconSm                     uintptr
	}{wndProc: windows.NewCallback(wndProc), bg: 16 /* COLOR_BTNFACE+1 */, className: class}
	wc.size = uint32(unsafe.Sizeof(wc))
	if r, _, err := procRegisterClassExW.Call(uintptr(unsafe.Pointer(&wc))); r == 0 {
		return fmt.Errorf("register the window class: %w", err)
	}
	mk := func(class, title string, style uintptr, x, y, w, h int, parent windows.HWND, id uintptr) (windows.HWND, error) {
		c, _ := windows.UTF16PtrFromString(class)
		s, _ := windows.UTF16PtrFromString(title)
		r, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(c)), uintptr(unsafe.Pointer(s)), style,
			uintptr(x), uintptr(y), uintptr(w), uintptr(h), uintptr(parent), id, 0, 0)
		if r == 0 {
			return 0, fmt.Errorf("create %s %q: %w", class, title, err)
		}
		return windows.HWND(r), nil
	}
	top, err := mk("RepriseCustomerForm", "New customer", wsOverlapped|wsVisible, 100, 80, 420, 220, 0, 0)
	if err != nil {
		return err
	}
	child := uintptr(wsChild | wsVisible)
	if _, err := mk("Static", "First Name", child, 10, 20, 100, 20, top, 0); err != nil {
		return err
	}
	if first, err = mk("Edit", "", child|wsBorder|wsTabStop|esAutoHScrol, 120, 16, 260, 24, top, 0); err != nil {
		return err
	}
	if _, err := mk("Static", "Email", child, 10, 60, 100, 20, top, 0); err != nil {
		return err
	}
	if email, err = mk("Edit", "", child|wsBorder|wsTabStop|esAutoHScrol, 120, 56, 260, 24, top, 0); err != nil {
		return err
	}
	ok, err := mk("Button", "OK", child|wsTabStop, 120, 110, 90, 30, top, idOK)
	if err != nil {
		return err
	}
	procSetFocus.Call(uintptr(first))
	if ready != "" {
		var where string
		for _, c := range []struct {
			name string
			h    windows.HWND
		}{{"first", first}, {"email", email}, {"ok", ok}} {
			var r windows.Rect
			procGetWindowRect.Call(uintptr(c.h), uintptr(unsafe.Pointer(&r)))
			where += fmt.Sprintf("%s %d %d\n", c.name, (r.Left+r.Right)/2, (r.Top+r.Bottom)/2)
		}
		if err := os.WriteFile(ready, []byte(where), 0o600); err != nil {
			return err
		}
	}
	var m struct {
		hwnd    uintptr
		message uint32
		wParam  uintptr
		lParam  uintptr
		time    uint32
		pt      [2]int32
		private uint32
	}
	for {
		r, _, _ := procGetMessageW.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0)
		if int32(r) <= 0 {
			return nil
		}
		if debugLog != nil && (m.message >= 0x0201 && m.message <= 0x0203 || m.message == 0x0100 || m.message == 0x0101) {
			fmt.Fprintf(debugLog, "%s msg %#x hwnd %#x wParam %#x at %d,%d\n", stamp(), m.message, m.hwnd, m.wParam, m.pt[0], m.pt[1])
		}
		procTranslateMessage.Call(uintptr(unsafe.Pointer(&m)))
		procDispatchMessageW.Call(uintptr(unsafe.Pointer(&m)))
	}
}
