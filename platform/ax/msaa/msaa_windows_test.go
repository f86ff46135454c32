//go:build windows && (amd64 || arm64)

package msaa

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// These tests drive a real desktop: msaa_linux_test.go runs them in a Wine
// virtual desktop, where they start notepad themselves.

var (
	procFindWindowExW      = win32.User32.NewProc("FindWindowExW")
	procGetWindowRect      = win32.User32.NewProc("GetWindowRect")
	procGetWindowTextW     = win32.User32.NewProc("GetWindowTextW")
	procGetSystemMetrics   = win32.User32.NewProc("GetSystemMetrics")
	procRegisterClassExW   = win32.User32.NewProc("RegisterClassExW")
	procCreateWindowExW    = win32.User32.NewProc("CreateWindowExW")
	procDestroyWindow      = win32.User32.NewProc("DestroyWindow")
	procDefWindowProcW     = win32.User32.NewProc("DefWindowProcW")
	procGetMessageW        = win32.User32.NewProc("GetMessageW")
	procTranslateMessage   = win32.User32.NewProc("TranslateMessage")
	procDispatchMessageW   = win32.User32.NewProc("DispatchMessageW")
	procPostThreadMessageW = win32.User32.NewProc("PostThreadMessageW")
	procSendMessageW       = win32.User32.NewProc("SendMessageW")
)

func childWindow(t *testing.T, parent windows.HWND, class string) windows.HWND {
	t.Helper()
	c, _ := windows.UTF16PtrFromString(class)
	h, _, _ := procFindWindowExW.Call(uintptr(parent), 0, uintptr(unsafe.Pointer(c)), 0)
	if h == 0 {
		t.Fatalf("no %s child window", class)
	}
	return windows.HWND(h)
}

func windowRect(t *testing.T, h windows.HWND) windows.Rect {
	t.Helper()
	var r windows.Rect
	if ok, _, err := procGetWindowRect.Call(uintptr(h), uintptr(unsafe.Pointer(&r))); ok == 0 {
		t.Fatalf("GetWindowRect: %v", err)
	}
	return r
}

func windowText(h windows.HWND) string {
	var buf [256]uint16
	n, _, _ := procGetWindowTextW.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	return windows.UTF16ToString(buf[:n])
}

func centre(r windows.Rect) (int, int) { return int(r.Left+r.Right) / 2, int(r.Top+r.Bottom) / 2 }

func newEnricher(t *testing.T) *Enricher {
	t.Helper()
	e, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}

// at asks e about (x, y) with the deadline a recording gives, and fails the
// test on an error.
func at(t *testing.T, e *Enricher, x, y int) *events.Enrichment {
	t.Helper()
	// What is checked is the path, not how fast Wine gives it: on a busy
	// machine (CI runs the Chromium suites beside this one) a walk took
	// over 200 ms and came back cut short. The time is logged.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	en, err := e.At(ctx, x, y)
	if err != nil {
		t.Fatalf("At(%d, %d) = %v", x, y, err)
	}
	if en == nil || en.AXPath == nil {
		t.Fatalf("At(%d, %d) = %+v; want an enrichment with a path", x, y, en)
	}
	t.Logf("At(%d, %d): path %q role %q label %q in %v", x, y, *en.AXPath, en.Role, en.Label,
		time.Since(start).Round(10*time.Microsecond))
	return en
}

func TestWineNotepadEdit(t *testing.T) {
	wine.InDesktop(t)
	np := wine.Notepad(t, 0, 0, 640, 480)
	edit := childWindow(t, np, "Edit")
	e := newEnricher(t)
	x, y := centre(windowRect(t, edit))
	en := at(t, e, x, y)
	if en.Kind != events.KindAX || en.Role != "textbox" || IsPassword(en) {
		t.Errorf("At(notepad's edit) = kind %q role %q, password %v; want ax, textbox, not a password",
			en.Kind, en.Role, IsPassword(en))
	}
	if last := axpath.LastRole(*en.AXPath); last != "text" {
		t.Errorf("last segment of %q is %q; want text", *en.AXPath, last)
	}
	if want := "window[" + windowText(np) + "]/"; !strings.HasPrefix(*en.AXPath, want) {
		t.Errorf("path %q does not start with the window, %q", *en.AXPath, want)
	}
	// The same element gives the same path: it is what replay looks for.
	if again := at(t, e, x+20, y+20); *again.AXPath != *en.AXPath {
		t.Errorf("another point of the edit gives path %q; want %q", *again.AXPath, *en.AXPath)
	}
}

// TestWineNotepadFrame asks about the title bar and the menu bar. Windows
// names them (title bar, menu item); Wine 8's window proxy cannot hit-test
// a window's frame, and the enricher then names the window itself.
func TestWineNotepadFrame(t *testing.T) {
	wine.InDesktop(t)
	np := wine.Notepad(t, 0, 0, 640, 480)
	wr, er := windowRect(t, np), windowRect(t, childWindow(t, np, "Edit"))
	e := newEnricher(t)
	frame, _, _ := procGetSystemMetrics.Call(33)  // SM_CYFRAME
	caption, _, _ := procGetSystemMetrics.Call(4) // SM_CYCAPTION
	menu, _, _ := procGetSystemMetrics.Call(15)   // SM_CYMENU
	points := map[string][2]int{
		"title bar": {int(wr.Left+wr.Right) / 2, int(wr.Top) + int(frame) + int(caption)/2},
		"menu bar":  {int(er.Left) + 12, int(er.Top) - int(menu)/2 - 1},
	}
	for what, p := range points {
		en := at(t, e, p[0], p[1])
		if en.Role == "textbox" || IsPassword(en) || en.Role == "" {
			t.Errorf("At(%s) = role %q (password %v); want a role other than textbox", what, en.Role, IsPassword(en))
		}
		if want := "window[" + windowText(np) + "]"; !strings.HasPrefix(*en.AXPath, want) {
			t.Errorf("At(%s) path %q does not start with the window, %q", what, *en.AXPath, want)
		}
	}
}

func TestWineCancelled(t *testing.T) {
	wine.InDesktop(t)
	e := newEnricher(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	en, err := e.At(ctx, 10, 10)
	if !errors.Is(err, context.Canceled) || en != nil {
		t.Errorf("At(cancelled) = %+v, %v; want context.Canceled", en, err)
	}
	if took := time.Since(start); took > 50*time.Millisecond {
		t.Errorf("At(cancelled) took %v; want it at once", took)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.At(context.Background(), 10, 10); !errors.Is(err, ErrClosed) {
		t.Errorf("At after Close = %v; want ErrClosed", err)
	}
}

// form is a window of the test's own: two unlabelled edits, then a user
// name and a password field each after its static label, served by a
// message loop on a thread of its own (oleacc's proxies send it messages).
type form struct {
	top, anon1, anon2, user, pass windows.HWND
	tid                           uint32
	done                          chan struct{}
}

func openForm(t *testing.T) *form {
	t.Helper()
	f := &form{done: make(chan struct{})}
	ready := make(chan error, 1)
	go func() {
		defer close(f.done)
		runtime.LockOSThread()
		f.tid = windows.GetCurrentThreadId()
		if err := f.create(); err != nil {
			ready <- err
			return
		}
		ready <- nil
		var m [48]byte // MSG
		for {
			r, _, _ := procGetMessageW.Call(uintptr(unsafe.Pointer(&m[0])), 0, 0, 0)
			if int32(r) <= 0 {
				break
			}
			procTranslateMessage.Call(uintptr(unsafe.Pointer(&m[0])))
			procDispatchMessageW.Call(uintptr(unsafe.Pointer(&m[0])))
		}
		procDestroyWindow.Call(uintptr(f.top))
	}()
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		procPostThreadMessageW.Call(uintptr(f.tid), 0x0012 /* WM_QUIT */, 0, 0)
		<-f.done
	})
	return f
}

func (f *form) create() error {
	const (
		wsOverlappedWindow = 0x00CF0000
		wsVisible          = 0x10000000
		wsChild            = 0x40000000
		wsBorder           = 0x00800000
		esPassword         = 0x0020
		wmSetText          = 0x000C
	)
	class, _ := windows.UTF16PtrFromString("RepriseMSAATestForm")
	wc := struct {
		size, style                uint32
		wndProc                    uintptr
		clsExtra, wndExtra         int32
		instance, icon, cursor, bg uintptr
		menuName, className        *uint16
		iconSm                     uintptr
	}{wndProc: procDefWindowProcW.Addr(), bg: 6 /* COLOR_WINDOW+1 */, className: class}
	wc.size = uint32(unsafe.Sizeof(wc))
	if r, _, err := procRegisterClassExW.Call(uintptr(unsafe.Pointer(&wc))); r == 0 {
		return err
	}
	mk := func(exStyle uintptr, class, text string, style uintptr, x, y, w, h int, parent windows.HWND) (windows.HWND, error) {
		c, _ := windows.UTF16PtrFromString(class)
		s, _ := windows.UTF16PtrFromString(text)
		r, _, err := procCreateWindowExW.Call(exStyle, uintptr(unsafe.Pointer(c)), uintptr(unsafe.Pointer(s)), style,
			uintptr(x), uintptr(y), uintptr(w), uintptr(h), uintptr(parent), 0, 0, 0)
		if r == 0 {
			return 0, err
		}
		return windows.HWND(r), nil
	}
	var err error
	// Right of notepad (0..640 in the 1024x700 desktop), so nothing covers it.
	if f.top, err = mk(0, "RepriseMSAATestForm", "Sign in", wsOverlappedWindow|wsVisible, 690, 60, 320, 300, 0); err != nil {
		return err
	}
	steps := []struct {
		out         *windows.HWND
		class, text string
		style       uintptr
		y           int
	}{
		{&f.anon1, "Edit", "", wsBorder, 10},
		{&f.anon2, "Edit", "", wsBorder, 45},
		{nil, "Static", "User:", 0, 85},
		{&f.user, "Edit", "", wsBorder, 110},
		{nil, "Static", "Password:", 0, 150},
		{&f.pass, "Edit", "", wsBorder | esPassword, 175},
	}
	for _, s := range steps {
		h, err := mk(0, s.class, s.text, wsChild|wsVisible|s.style, 10, s.y, 260, 24, f.top)
		if err != nil {
			return err
		}
		if s.out != nil {
			*s.out = h
		}
	}
	// Values the enrichment must never carry.
	for h, v := range map[windows.HWND]string{f.user: "alice-value", f.pass: "hunter2-secret", f.anon1: "anon-value"} {
		p, _ := windows.UTF16PtrFromString(v)
		procSendMessageW.Call(uintptr(h), wmSetText, 0, uintptr(unsafe.Pointer(p)))
	}
	return nil
}

func TestWinePasswordField(t *testing.T) {
	wine.InDesktop(t)
	f := openForm(t)
	e := newEnricher(t)
	type want struct {
		password bool
		label    string
		last     string
	}
	// A labelled field's window object is named after its label, as is
	// the label's own window object: the field's is the second of the two.
	cases := []struct {
		name string
		h    windows.HWND
		want want
	}{
		{"user", f.user, want{false, "User:", "window[User:]#2/text[User:]"}},
		{"password", f.pass, want{true, "Password:", "window[Password:]#2/password text[Password:]"}},
		{"first unlabelled", f.anon1, want{false, "", "window#1/text"}},
		{"second unlabelled", f.anon2, want{false, "", "window#2/text"}},
	}
	for _, c := range cases {
		x, y := centre(windowRect(t, c.h))
		en := at(t, e, x, y)
		if IsPassword(en) != c.want.password || en.Role != "textbox" || en.Label != c.want.label {
			t.Errorf("At(%s) = role %q label %q password %v; want textbox, %q, %v",
				c.name, en.Role, en.Label, IsPassword(en), c.want.label, c.want.password)
		}
		if want := "window[Sign in]/client[Sign in]/" + c.want.last; *en.AXPath != want {
			t.Errorf("At(%s) path = %q; want %q", c.name, *en.AXPath, want)
		}
		b, _ := json.Marshal(en)
		for _, v := range []string{"alice-value", "hunter2-secret", "anon-value"} {
			if strings.Contains(string(b), v) {
				t.Errorf("At(%s) = %s: carries the field value %q", c.name, b, v)
			}
		}
	}
}
