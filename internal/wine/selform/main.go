//go:build windows

// Command selform is the Win32 rendering of the selector conformance form
// (selector/selectortest): a window titled "Selector conformance" with two
// group boxes, "Billing" and "Shipping", side by side, each holding a
// static "Name:" and the edit after it, a static "City" and the edit after
// it, and a "Save" button; a row of three "Add" buttons; a check box "Gift
// wrap" and a "Cancel" button whose control id is 1003.
//
// On Win32 the "linked label" is the static created just before an edit:
// MSAA's and UIA's proxies name the edit from it (UIA also gives it as
// LabeledBy). A group box does not parent the controls drawn inside it, so
// both trees would list them as its siblings, and the selector model's
// "in" means descendants: here each group's controls are created as child
// windows of the group box itself, so that the accessibility trees nest
// them under it.
//
// With -bench n it also opens a window "Selector bench" with n buttons, to
// time a listing of a few hundred elements.
//
//	selform -bench 400
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
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
)

const (
	wsOverlapped  = 0x00CF0000
	wsVisible     = 0x10000000
	wsChild       = 0x40000000
	wsBorder      = 0x00800000
	wsTabStop     = 0x00010000
	bsGroupBox    = 0x0007
	bsAutoCheck   = 0x0003
	esAutoHScroll = 0x0080
	wmDestroy     = 0x0002

	// Title is selectortest.Title; the bench window's title follows it.
	title      = "Selector conformance"
	benchTitle = "Selector bench"
	cancelID   = 1003
)

func init() { runtime.LockOSThread() } // windows belong to the thread that made them

func main() {
	bench := flag.Int("bench", 0, "open a second window with this many buttons")
	flag.Parse()
	if err := run(*bench); err != nil {
		fmt.Fprintln(os.Stderr, "selform:", err)
		os.Exit(1)
	}
}

func wndProc(h windows.HWND, msg uint32, wParam, lParam uintptr) uintptr {
	if msg == wmDestroy {
		procPostQuitMessage.Call(0)
		return 0
	}
	r, _, _ := procDefWindowProcW.Call(uintptr(h), uintptr(msg), wParam, lParam)
	return r
}

// mk creates a window; the ids count up from 2000 unless one is given, so
// that no control but Cancel has 1003.
func mk(class, text string, style uintptr, x, y, w, h int, parent windows.HWND, id uintptr) (windows.HWND, error) {
	c, _ := windows.UTF16PtrFromString(class)
	s, _ := windows.UTF16PtrFromString(text)
	if id == 0 && parent != 0 {
		nextID++
		id = nextID
	}
	r, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(c)), uintptr(unsafe.Pointer(s)), style,
		uintptr(x), uintptr(y), uintptr(w), uintptr(h), uintptr(parent), id, 0, 0)
	if r == 0 {
		return 0, fmt.Errorf("create %s %q: %w", class, text, err)
	}
	return windows.HWND(r), nil
}

var nextID uintptr = 2000

// group makes a group box at x, y and its controls inside it, as its
// children (see the package comment).
func group(parent windows.HWND, name, prefix string, x, y int) error {
	child := uintptr(wsChild | wsVisible)
	g, err := mk("Button", name, child|bsGroupBox, x, y, 300, 130, parent, 0)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		class, text string
		style       uintptr
		x, y, w, h  int
	}{
		{"Static", "Name:", child, 10, 25, 50, 20},
		{"Edit", prefix + "-name", child | wsBorder | wsTabStop | esAutoHScroll, 65, 22, 200, 22},
		// The edit before its static: no proxy links the two, so "City"
		// is the label linked to nothing, found by position alone.
		{"Edit", prefix + "-city", child | wsBorder | wsTabStop | esAutoHScroll, 65, 54, 200, 22},
		{"Static", "City", child, 10, 57, 50, 20},
		{"Button", "Save", child | wsTabStop, 10, 92, 80, 26},
	} {
		if _, err := mk(c.class, c.text, c.style, c.x, c.y, c.w, c.h, g, 0); err != nil {
			return err
		}
	}
	return nil
}

func run(bench int) error {
	class, _ := windows.UTF16PtrFromString("RepriseSelectorForm")
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
	top, err := mk("RepriseSelectorForm", title, wsOverlapped|wsVisible, 20, 20, 660, 300, 0, 0)
	if err != nil {
		return err
	}
	if err := group(top, "Billing", "b", 10, 10); err != nil {
		return err
	}
	if err := group(top, "Shipping", "s", 330, 10); err != nil {
		return err
	}
	child := uintptr(wsChild | wsVisible | wsTabStop)
	for i := range 3 {
		if _, err := mk("Button", "Add", child, 10+110*i, 160, 90, 26, top, 0); err != nil {
			return err
		}
	}
	if _, err := mk("Button", "Gift wrap", child|bsAutoCheck, 10, 202, 120, 22, top, 0); err != nil {
		return err
	}
	if _, err := mk("Button", "Cancel", child, 140, 200, 90, 26, top, cancelID); err != nil {
		return err
	}
	if bench > 0 {
		if err := benchWindow(bench); err != nil {
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
		procTranslateMessage.Call(uintptr(unsafe.Pointer(&m)))
		procDispatchMessageW.Call(uintptr(unsafe.Pointer(&m)))
	}
}

// benchWindow opens a window of n small buttons, 20 to a row, all on
// screen in a 1024 by 700 desktop up to 400 of them.
func benchWindow(n int) error {
	w, err := mk("RepriseSelectorForm", benchTitle, wsOverlapped|wsVisible, 20, 330, 980, 360, 0, 0)
	if err != nil {
		return err
	}
	for i := range n {
		if _, err := mk("Button", fmt.Sprintf("B%d", i), wsChild|wsVisible, 5+(i%20)*48, 5+(i/20)*16, 46, 15, w, 0); err != nil {
			return err
		}
	}
	return nil
}
