package screen

import (
	"image"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/internal/wine"
)

// These tests read a real desktop: gdi_linux_test.go runs them in a Wine
// virtual desktop (1024x700), where they start notepad themselves.

var (
	procCreateWindowExW    = win32.User32.NewProc("CreateWindowExW")
	procDestroyWindow      = win32.User32.NewProc("DestroyWindow")
	procGetMessageW        = win32.User32.NewProc("GetMessageW")
	procDispatchMessageW   = win32.User32.NewProc("DispatchMessageW")
	procPostThreadMessageW = win32.User32.NewProc("PostThreadMessageW")
)

// colours counts the distinct colours of img, up to limit.
func colours(img *image.RGBA, limit int) int {
	seen := map[[4]byte]bool{}
	for i := 0; i+4 <= len(img.Pix) && len(seen) < limit; i += 4 {
		seen[[4]byte(img.Pix[i:i+4])] = true
	}
	return len(seen)
}

func TestWineGDIGrab(t *testing.T) {
	wine.InDesktop(t)
	wine.Notepad(t, 0, 0, 640, 480)
	g, err := NewGDI()
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for i := range 2 { // the second grab reuses the DIB section
		start := time.Now()
		img, err := g.Grab()
		if err != nil {
			t.Fatalf("Grab() = %v", err)
		}
		t.Logf("grab %d: %v in %v", i, img.Rect, time.Since(start).Round(time.Microsecond))
		if got := img.Rect.Size(); got != image.Pt(1024, 700) {
			t.Errorf("Grab() is %v; want the 1024x700 desktop", got)
		}
		if n := colours(img, 16); n < 3 {
			t.Errorf("Grab() has %d colours; want a desktop with notepad on it", n)
		}
		for i := 3; i < len(img.Pix); i += 4 {
			if img.Pix[i] != 0xff {
				t.Fatalf("pixel %d has alpha %#x; want opaque", i/4, img.Pix[i])
			}
		}
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Grab(); err == nil {
		t.Error("Grab() after Close succeeded; want an error")
	}
}

// TestWineGDIGrabWindow grabs notepad's window. Under Wine 8 PrintWindow
// draws nothing for another process's window, and the grab falls back to
// BitBlt; on Windows PrintWindow draws it.
func TestWineGDIGrabWindow(t *testing.T) {
	wine.InDesktop(t)
	h := uintptr(wine.Notepad(t, 0, 0, 640, 480))
	var r windows.Rect
	procGetWindowRect.Call(h, uintptr(unsafe.Pointer(&r)))
	start := time.Now()
	img, how, err := grabWindow(h)
	if err != nil {
		t.Fatalf("GrabWindow(notepad) = %v", err)
	}
	t.Logf("GrabWindow(notepad): %v by %s in %v", img.Rect, how, time.Since(start).Round(time.Microsecond))
	if got, want := img.Rect.Size(), image.Pt(int(r.Right-r.Left), int(r.Bottom-r.Top)); got != want {
		t.Errorf("GrabWindow(notepad) is %v; want the window's %v", got, want)
	}
	black := 0
	for i := 0; i+4 <= len(img.Pix); i += 4 {
		if img.Pix[i] == 0 && img.Pix[i+1] == 0 && img.Pix[i+2] == 0 {
			black++
		}
	}
	if total := len(img.Pix) / 4; black*2 > total || colours(img, 16) < 3 {
		t.Errorf("GrabWindow(notepad): %d of %d pixels black, %d colours; want the window drawn", black, total, colours(img, 16))
	}
	if _, err := GrabWindow(0x7fff0001); err == nil {
		t.Error("GrabWindow(no such window) succeeded; want an error")
	}
}

// openOwnWindow opens a top-level window of this process (a static
// control with a caption), served by a message loop on a thread of its own.
func openOwnWindow(t *testing.T) uintptr {
	t.Helper()
	type opened struct {
		h   uintptr
		tid uint32
		err error
	}
	ready, done := make(chan opened, 1), make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		class, _ := windows.UTF16PtrFromString("Static")
		text, _ := windows.UTF16PtrFromString("reprise PrintWindow test")
		const wsOverlappedWindow, wsVisible = 0x00CF0000, 0x10000000
		h, _, err := procCreateWindowExW.Call(0, uintptr(unsafe.Pointer(class)), uintptr(unsafe.Pointer(text)),
			wsOverlappedWindow|wsVisible, 660, 100, 300, 200, 0, 0, 0, 0)
		if h == 0 {
			ready <- opened{err: err}
			return
		}
		ready <- opened{h: h, tid: windows.GetCurrentThreadId()}
		var m [48]byte // MSG
		for {
			if r, _, _ := procGetMessageW.Call(uintptr(unsafe.Pointer(&m[0])), 0, 0, 0); int32(r) <= 0 {
				break
			}
			procDispatchMessageW.Call(uintptr(unsafe.Pointer(&m[0])))
		}
		procDestroyWindow.Call(h)
	}()
	o := <-ready
	if o.err != nil {
		t.Fatalf("CreateWindowEx: %v", o.err)
	}
	t.Cleanup(func() {
		procPostThreadMessageW.Call(uintptr(o.tid), 0x0012 /* WM_QUIT */, 0, 0)
		<-done
	})
	return o.h
}

// TestWineGDIPrintWindow grabs a window of this process, which Wine's
// PrintWindow can draw (unlike another process's).
func TestWineGDIPrintWindow(t *testing.T) {
	wine.InDesktop(t)
	h := openOwnWindow(t)
	time.Sleep(100 * time.Millisecond) // let it paint once
	img, how, err := grabWindow(h)
	if err != nil {
		t.Fatalf("GrabWindow(own window) = %v", err)
	}
	t.Logf("GrabWindow(own window): %v by %s", img.Rect, how)
	if !strings.HasPrefix(how, "PrintWindow") {
		t.Errorf("GrabWindow(own window) used %s; want PrintWindow", how)
	}
	if got := img.Rect.Size(); got != image.Pt(300, 200) {
		t.Errorf("GrabWindow(own window) is %v; want 300x200", got)
	}
	if n := colours(img, 16); n < 3 {
		t.Errorf("GrabWindow(own window) has %d colours; want its frame and caption drawn", n)
	}
}
