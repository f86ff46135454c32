package consent

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"
)

// The user32 calls x/sys/windows does not wrap, declared once.
var (
	procEnumThreadWindows = win32.User32.NewProc("EnumThreadWindows")
	procPostMessageW      = win32.User32.NewProc("PostMessageW")
	// pressNoCallback is made once: Windows callbacks are never freed.
	pressNoCallback = windows.NewCallback(pressNo)
)

const (
	wmCommand = 0x0111
	idYes     = 6
	idNo      = 7
)

// pressNo answers No on a window, as clicking the button would.
func pressNo(hwnd windows.HWND, _ uintptr) uintptr {
	procPostMessageW.Call(uintptr(hwnd), wmCommand, idNo, 0)
	return 1 // go on to the next window
}

// Available implements Prompter: a process in session 0 (a service) has no
// desktop a person could see a message box on.
func (m *MessageBox) Available() (bool, string) {
	var session uint32
	if err := windows.ProcessIdToSessionId(uint32(os.Getpid()), &session); err != nil {
		return false, fmt.Sprintf("cannot tell which Windows session this is: %v", err)
	}
	if session == 0 {
		return false, "running as a service, with no desktop to show a message box on"
	}
	return true, ""
}

// Ask implements Prompter.
func (m *MessageBox) Ask(ctx context.Context, p api.ConsentPrompt) (Decision, error) {
	yes, err := messageBox(ctx, p.Title, messageBoxText(p.Body, p.Approve, p.Deny))
	if err != nil {
		return Decision{}, err
	}
	if m.Logger != nil {
		m.Logger.Info("consent question answered in a message box; asking whether to remember it")
	}
	keep, err := messageBox(ctx, rememberTitle, messageBoxText(rememberText, RememberYes, RememberNo))
	if err != nil {
		return Decision{Approved: yes}, nil
	}
	return Decision{Approved: yes, Remember: keep}, nil
}

// messageBox shows a Yes/No message box on a thread of its own and reports
// whether Yes was pressed. When ctx ends the box is answered No, which
// closes it, and ctx's error is returned.
func messageBox(ctx context.Context, title, text string) (bool, error) {
	t, err := windows.UTF16PtrFromString(title)
	if err != nil {
		return false, fmt.Errorf("message box title: %w", err)
	}
	x, err := windows.UTF16PtrFromString(text)
	if err != nil {
		return false, fmt.Errorf("message box text: %w", err)
	}
	type result struct {
		ret int32
		err error
	}
	tid := make(chan uint32, 1)
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tid <- windows.GetCurrentThreadId()
		ret, err := windows.MessageBox(0, x, t, windows.MB_YESNO|windows.MB_DEFBUTTON2|windows.MB_SETFOREGROUND|windows.MB_TOPMOST)
		done <- result{ret, err}
	}()
	thread := <-tid
	select {
	case r := <-done:
		if r.ret == 0 {
			return false, fmt.Errorf("show message box: %w", r.err)
		}
		return r.ret == idYes, nil
	case <-ctx.Done():
	}
	// The box may not be up yet: keep pressing No until it has gone.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		procEnumThreadWindows.Call(uintptr(thread), pressNoCallback, 0)
		select {
		case <-done:
			return false, ctx.Err()
		case <-tick.C:
		}
	}
}
