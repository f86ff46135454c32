package winhook

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
)

// hookState is what the hook callbacks feed while a session records.
type hookState struct {
	pipe            *pipeline
	includeInjected bool
}

var (
	// active is the recording session's state, nil when none records.
	active atomic.Pointer[hookState]
	// claimed is held by the one Source whose hooks are installed.
	claimed atomic.Bool
	// The callbacks, created once: Windows callbacks are never freed.
	mouseProc = windows.NewCallback(onMouse)
	keyProc   = windows.NewCallback(onKey)
)

// onMouse is the WH_MOUSE_LL callback. It returns at once: a slow low-level
// hook is skipped, then removed, by Windows.
func onMouse(code, wParam, lParam uintptr) uintptr {
	if int32(code) == hcAction {
		if st := active.Load(); st != nil {
			st.mouse(wParam, lParam)
		}
	}
	return callNextHookEx(code, wParam, lParam)
}

// onKey is the WH_KEYBOARD_LL callback.
func onKey(code, wParam, lParam uintptr) uintptr {
	if int32(code) == hcAction {
		if st := active.Load(); st != nil {
			st.key(wParam, lParam)
		}
	}
	return callNextHookEx(code, wParam, lParam)
}

func (st *hookState) mouse(wParam, lParam uintptr) {
	var button int
	switch wParam {
	case wmLButtonDown:
		button = 1
	case wmMButtonDown:
		button = 2
	case wmRButtonDown:
		button = 3
	default:
		return // releases, moves, wheel: the assembler has no use for them
	}
	// lParam is a pointer Windows owns for the call; read through it
	// without converting a uintptr variable to a pointer.
	m := *(**msllhookstruct)(unsafe.Pointer(&lParam))
	if m.Flags&(llmhfInjected|llmhfLowerILInjected) != 0 && !st.includeInjected {
		st.pipe.injected.Add(1)
		return
	}
	r := desktop.Raw{Kind: desktop.ButtonPress, Button: button, X: int(m.X), Y: int(m.Y), Time: time.Now()}
	r.Window.ID = uint32(rootWindowAt(m.X, m.Y))
	st.pipe.Feed(r)
}

func (st *hookState) key(wParam, lParam uintptr) {
	var kind desktop.Kind
	switch wParam {
	case wmKeyDown, wmSysKeyDown:
		kind = desktop.KeyPress
	case wmKeyUp, wmSysKeyUp:
		kind = desktop.KeyRelease
	default:
		return
	}
	k := *(**kbdllhookstruct)(unsafe.Pointer(&lParam))
	if k.Flags&(llkhfInjected|llkhfLowerILInjected) != 0 && !st.includeInjected {
		st.pipe.injected.Add(1)
		return
	}
	r := keyRaw(kind, uint16(k.VKCode), k.Flags&llkhfExtended != 0, time.Now())
	r.Window.ID = uint32(windows.GetForegroundWindow())
	// Where the pointer is, as X11 key events carry it: a fill is typed
	// into the field the last click focused, found again by this point.
	r.X, r.Y = cursorPos()
	st.pipe.Feed(r)
}

// resolveWindow names the window a raw event went to: its title, and the
// image name of its process as the app. It runs off the hook thread.
func resolveWindow(r *desktop.Raw) {
	if r.Window.ID == 0 {
		return
	}
	h := uintptr(r.Window.ID)
	r.Window.Title = windowText(h)
	r.Window.App = imageName(h)
}

// Available reports whether the hooks can see a person's input: the
// process must run on the interactive desktop.
func (s *Source) Available() (bool, string) {
	if err := procSetWindowsHookExW.Find(); err != nil {
		return false, "user32.dll has no SetWindowsHookExW: " + err.Error()
	}
	if err := interactiveDesktop(); err != nil {
		return false, "this process cannot see the interactive desktop (a service, or a locked session?): " +
			err.Error() + "; run reprise in the person's own session"
	}
	return true, ""
}

// Start installs the hooks on a thread of their own and returns once they
// are in place.
func (s *Source) Start(ctx context.Context, _ capture.Session, sink capture.Sink) error {
	return s.Begin(ctx, func() (desktop.Session[Stats], error) { return s.open(ctx, sink) })
}

// open installs the hooks and starts the assembling goroutine.
func (s *Source) open(ctx context.Context, sink capture.Sink) (*session, error) {
	if !claimed.CompareAndSwap(false, true) {
		return nil, ErrBusy
	}
	p := newPipeline(sink, s.opts, resolveWindow)
	type started struct {
		tid uint32
		err error
	}
	ready := make(chan started, 1)
	hookDone := make(chan struct{})
	go func() {
		defer close(hookDone)
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		ensureQueue()
		mh, err := setWindowsHookEx(whMouseLL, mouseProc)
		if err != nil {
			ready <- started{err: fmt.Errorf("install the mouse hook: %w", err)}
			return
		}
		defer unhookWindowsHookEx(mh)
		kh, err := setWindowsHookEx(whKeyboardLL, keyProc)
		if err != nil {
			ready <- started{err: fmt.Errorf("install the keyboard hook: %w", err)}
			return
		}
		defer unhookWindowsHookEx(kh)
		active.Store(&hookState{pipe: p, includeInjected: s.opts.IncludeInjected})
		defer active.Store(nil)
		ready <- started{tid: windows.GetCurrentThreadId()}
		// The hooks are called from inside GetMessage on this thread.
		var m msg
		for getMessage(&m) > 0 {
		}
	}()
	st := <-ready
	if st.err != nil {
		<-hookDone
		claimed.Store(false)
		return nil, st.err
	}
	var once sync.Once
	stopHook := func() {
		once.Do(func() {
			if err := postThreadMessage(st.tid, wmQuit); err != nil {
				s.opts.Logger.Warn("stop the hook thread", logKeyErr, err)
			}
		})
	}
	done := make(chan struct{})
	go func() {
		<-hookDone // no callback runs once the loop has returned
		claimed.Store(false)
		p.Close()
	}()
	go func() {
		defer close(done)
		p.Run(ctx)
	}()
	return &session{pipe: p, stop: stopHook, done: done}, nil
}
