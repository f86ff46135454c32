package quartz

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf16"

	"github.com/ebitengine/purego"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/platform/cocoa"
	"github.com/reprise-dev/reprise/platform/keys/mackey"
)

// Event tap constants (CGEventTypes.h).
const (
	tapSession       = 1 // kCGSessionEventTap
	tapHeadInsert    = 0 // kCGHeadInsertEventTap
	tapListenOnly    = 1 // kCGEventTapOptionListenOnly
	evLeftMouseDown  = 1
	evRightMouseDown = 3
	evKeyDown        = 10
	evOtherMouseDown = 25
	evTapDisabledTO  = 0xFFFFFFFE // kCGEventTapDisabledByTimeout
	evTapDisabledUI  = 0xFFFFFFFF // kCGEventTapDisabledByUserInput

	fieldMouseButton   = 3  // kCGMouseEventButtonNumber
	fieldKeycode       = 9  // kCGKeyboardEventKeycode
	fieldTargetPID     = 40 // kCGEventTargetUnixProcessID
	fieldWindowUnderMP = 91 // kCGMouseEventWindowUnderMousePointer

	runLoopFinished = 1 // kCFRunLoopRunFinished
)

// Bounds on the tap's start and stop.
const (
	startTimeout = 5 * time.Second
	stopTimeout  = 2 * time.Second
	runSlice     = 0.5 // seconds per CFRunLoopRunInMode, so a lost stop costs this at most
)

// The callback is created once per process (purego never frees callbacks)
// and finds the running session through active; only one tap runs at a
// time.
var (
	callbackOnce sync.Once
	callbackPtr  uintptr
	active       atomic.Pointer[session]
)

// session is one Start..Stop: the run loop thread and the assembling
// goroutine.
type session struct {
	pipe     *pipeline
	tap      atomic.Uintptr
	runLoop  atomic.Uintptr
	stopping atomic.Bool

	once     sync.Once
	loopDone chan struct{} // the run loop thread has exited and closed pipe.in
	runDone  chan struct{} // the pipeline has flushed
}

// Available reports whether the tap can run: the frameworks load and the
// process may listen to input (Input Monitoring, macOS 10.15+).
func (s *Source) Available() (bool, string) {
	if err := cocoa.Load(); err != nil {
		return false, err.Error()
	}
	if cocoa.CGPreflightListenEventAccess != nil && !cocoa.CGPreflightListenEventAccess() {
		return false, "this process may not monitor input: allow it in System Settings > " +
			"Privacy & Security > Input Monitoring (and Accessibility), then restart it"
	}
	return true, ""
}

// RequestListenAccess asks macOS to prompt for Input Monitoring; it reports
// whether access is granted now.
func RequestListenAccess() bool {
	if cocoa.Load() != nil || cocoa.CGRequestListenEventAccess == nil {
		return false
	}
	return cocoa.CGRequestListenEventAccess()
}

// Start creates the listen-only tap on its own locked thread with its own
// run loop and returns once the tap is enabled. Steps go to sink until Stop
// or ctx ends.
func (s *Source) Start(ctx context.Context, _ capture.Session, sink capture.Sink) error {
	if sink == nil {
		return errors.New("start quartz source: nil sink")
	}
	if err := cocoa.Load(); err != nil {
		return fmt.Errorf("start quartz source: %w", err)
	}
	return s.Begin(ctx, func() (desktop.Session[Stats], error) { return s.open(ctx, sink) })
}

// open starts the tap's run loop and the assembling goroutine.
func (s *Source) open(ctx context.Context, sink capture.Sink) (*session, error) {
	sess := &session{pipe: newPipeline(sink, s.opts, resolve),
		loopDone: make(chan struct{}), runDone: make(chan struct{})}
	if !active.CompareAndSwap(nil, sess) {
		return nil, errors.New("start quartz source: another quartz source is running in this process")
	}
	callbackOnce.Do(func() { callbackPtr = purego.NewCallback(tapCallback) })
	started := make(chan error, 1)
	go sess.loop(started)
	select {
	case err := <-started:
		if err != nil {
			<-sess.loopDone
			active.CompareAndSwap(sess, nil)
			return nil, fmt.Errorf("start quartz source: %w", err)
		}
	case <-time.After(startTimeout):
		sess.stop()
		active.CompareAndSwap(sess, nil)
		return nil, errors.New("start quartz source: the event tap did not start")
	}
	go func() { defer close(sess.runDone); sess.pipe.Run(ctx) }()
	return sess, nil
}

// loop is the run loop thread: it owns the tap from creation to release.
func (sess *session) loop(started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer close(sess.loopDone)
	defer sess.pipe.Close()
	mask := uint64(1)<<evLeftMouseDown | 1<<evRightMouseDown | 1<<evOtherMouseDown | 1<<evKeyDown
	tap := cocoa.CGEventTapCreate(tapSession, tapHeadInsert, tapListenOnly, mask, callbackPtr, 0)
	if tap == 0 {
		started <- errors.New("CGEventTapCreate refused: allow this process in System Settings > " +
			"Privacy & Security > Input Monitoring")
		return
	}
	defer cocoa.CFRelease(tap)
	src := cocoa.CFMachPortCreateRunLoopSource(0, tap, 0)
	if src == 0 {
		cocoa.CFMachPortInvalidate(tap)
		started <- errors.New("CFMachPortCreateRunLoopSource failed")
		return
	}
	defer cocoa.CFRelease(src)
	rl := cocoa.CFRunLoopGetCurrent()
	cocoa.CFRunLoopAddSource(rl, src, cocoa.KCFRunLoopCommonModes)
	sess.tap.Store(tap)
	sess.runLoop.Store(rl)
	cocoa.CGEventTapEnable(tap, true)
	started <- nil
	// Run in slices, not CFRunLoopRun: a CFRunLoopStop that lands before
	// the loop runs would be lost, and the stopping flag is checked here.
	for !sess.stopping.Load() {
		if cocoa.CFRunLoopRunInMode(cocoa.KCFRunLoopDefaultMode, runSlice, false) == runLoopFinished {
			time.Sleep(50 * time.Millisecond) // no sources: should not happen
		}
	}
	cocoa.CGEventTapEnable(tap, false)
	cocoa.CFRunLoopRemoveSource(rl, src, cocoa.KCFRunLoopCommonModes)
	cocoa.CFMachPortInvalidate(tap)
	sess.tap.Store(0)
}

// stop ends the run loop from any goroutine.
func (sess *session) stop() {
	sess.stopping.Store(true)
	if rl := sess.runLoop.Load(); rl != 0 {
		cocoa.CFRunLoopStop(rl)
		cocoa.CFRunLoopWakeUp(rl)
	}
}

// tapCallback runs on the run loop thread for every tapped event. It only
// reads fields, stamps and queues: macOS disables a tap whose callback is
// slow. Its arguments are all pointer-sized, as purego requires.
func tapCallback(proxy, typ, event, info uintptr) uintptr {
	sess := active.Load()
	if sess == nil {
		return event
	}
	switch uint32(typ) {
	case evTapDisabledTO, evTapDisabledUI:
		if tap := sess.tap.Load(); tap != 0 && !sess.stopping.Load() {
			cocoa.CGEventTapEnable(tap, true)
			sess.pipe.reenabled.Add(1)
		}
		return event
	}
	if event == 0 {
		return event
	}
	now := time.Now()
	loc := cocoa.CGEventGetLocation(event)
	e := Event{X: int(loc.X), Y: int(loc.Y), Time: now,
		PID: int(cocoa.CGEventGetIntegerValueField(event, fieldTargetPID))}
	switch uint32(typ) {
	case evLeftMouseDown, evRightMouseDown, evOtherMouseDown:
		e.Kind = MouseDown
		e.WindowID = uint32(cocoa.CGEventGetIntegerValueField(event, fieldWindowUnderMP))
		e.Flags = cocoa.CGEventGetFlags(event)
		switch uint32(typ) {
		case evLeftMouseDown:
			e.Button = 1
		case evRightMouseDown:
			e.Button = 3
		default:
			if cocoa.CGEventGetIntegerValueField(event, fieldMouseButton) != 2 {
				return event // back, forward...: not steps
			}
			e.Button = 2
		}
	case evKeyDown:
		e.Kind = KeyDown
		e.Keycode = mackey.Keycode(cocoa.CGEventGetIntegerValueField(event, fieldKeycode))
		e.Flags = cocoa.CGEventGetFlags(event)
		var buf [8]uint16
		var n uint
		cocoa.CGEventKeyboardGetUnicodeString(event, uint(len(buf)), &n, &buf[0])
		if n > uint(len(buf)) {
			n = uint(len(buf))
		}
		e.Text = string(utf16.Decode(buf[:n]))
	default:
		return event
	}
	sess.pipe.Feed(e)
	return event
}

// Stats counts the session's input and output so far.
func (sess *session) Stats() Stats { return sess.pipe.stats() }

// Shutdown stops the tap, lets the pipeline flush and returns when nothing
// more will be emitted. It runs once, from Stop or when ctx ends.
func (sess *session) Shutdown() {
	sess.once.Do(func() {
		sess.stop()
		select {
		case <-sess.loopDone:
		case <-time.After(stopTimeout):
			sess.pipe.log.Warn("quartz run loop did not stop in time")
			<-sess.loopDone
		}
		<-sess.runDone
		active.CompareAndSwap(sess, nil)
	})
}
