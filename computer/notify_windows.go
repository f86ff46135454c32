package computer

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/platform/win32"
)

var (
	shell32              = windows.NewLazySystemDLL("shell32.dll")
	procShellNotifyIconW = shell32.NewProc("Shell_NotifyIconW")
	procCreateWindowExW  = win32.User32.NewProc("CreateWindowExW")
	procLoadIconW        = win32.User32.NewProc("LoadIconW")
)

// Shell_NotifyIcon messages and flags.
const (
	nimAdd      = 0
	nimModify   = 1
	nifIcon     = 0x02
	nifTip      = 0x04
	nifInfo     = 0x10
	niifInfo    = 0x01
	idiInfo     = 32516
	hwndMessage = ^uintptr(2) // HWND_MESSAGE, (HWND)-3
)

// notifyIconData is NOTIFYICONDATAW (Vista and later).
type notifyIconData struct {
	Size            uint32
	Wnd             windows.HWND
	ID              uint32
	Flags           uint32
	CallbackMessage uint32
	Icon            windows.Handle
	Tip             [128]uint16
	State           uint32
	StateMask       uint32
	Info            [256]uint16
	Timeout         uint32
	InfoTitle       [64]uint16
	InfoFlags       uint32
	GUID            windows.GUID
	BalloonIcon     windows.Handle
}

// trayNotifier is reprise's icon in the notification area: there while
// the daemon runs, its tooltip the grant's state, and a balloon for each
// grant event. Its window lives on one locked OS thread, as Win32 wants.
type trayNotifier struct {
	once sync.Once
	err  error
	reqs chan trayReq
}

type trayReq struct {
	summary, body string
	done          chan error
}

// NewNotifier returns the notification area's notifier.
func NewNotifier() Notifier { return &trayNotifier{reqs: make(chan trayReq)} }

func (n *trayNotifier) Notify(ctx context.Context, summary, body string) error {
	n.once.Do(func() {
		ready := make(chan error)
		go n.loop(ready)
		n.err = <-ready
	})
	if n.err != nil {
		return n.err
	}
	req := trayReq{summary, body, make(chan error, 1)}
	select {
	case n.reqs <- req:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (n *trayNotifier) loop(ready chan<- error) {
	runtime.LockOSThread()
	class, _ := windows.UTF16PtrFromString("STATIC")
	title, _ := windows.UTF16PtrFromString("reprise")
	hwnd, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(class)), uintptr(unsafe.Pointer(title)), 0,
		0, 0, 0, 0, hwndMessage, 0, 0, 0)
	if hwnd == 0 {
		ready <- fmt.Errorf("create the tray's window: %w", err)
		return
	}
	icon, _, _ := procLoadIconW.Call(0, idiInfo)
	d := notifyIconData{Wnd: windows.HWND(hwnd), ID: 1, Flags: nifIcon | nifTip, Icon: windows.Handle(icon)}
	d.Size = uint32(unsafe.Sizeof(d))
	copyUTF16(d.Tip[:], "reprise: no grant is active")
	if r, _, err := procShellNotifyIconW.Call(nimAdd, uintptr(unsafe.Pointer(&d))); r == 0 {
		ready <- fmt.Errorf("add the tray icon: %w", err)
		return
	}
	ready <- nil
	for req := range n.reqs {
		d.Flags = nifIcon | nifTip | nifInfo
		copyUTF16(d.Tip[:], "reprise: "+req.summary)
		copyUTF16(d.InfoTitle[:], req.summary)
		copyUTF16(d.Info[:], req.body)
		d.InfoFlags = niifInfo
		r, _, err := procShellNotifyIconW.Call(nimModify, uintptr(unsafe.Pointer(&d)))
		if r == 0 {
			req.done <- fmt.Errorf("show the tray balloon: %w", err)
			continue
		}
		req.done <- nil
	}
}

// copyUTF16 writes s into dst, cut to fit with its terminating zero.
func copyUTF16(dst []uint16, s string) {
	u, err := windows.UTF16FromString(s)
	if err != nil {
		u = []uint16{0}
	}
	if len(u) > len(dst) {
		u = append(u[:len(dst)-1], 0)
	}
	clear(dst)
	copy(dst, u)
}
