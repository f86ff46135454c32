package desktop

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/ebitengine/purego"

	"github.com/reprise-dev/reprise/capture/quartz"
	"github.com/reprise-dev/reprise/capture/x11"
	"github.com/reprise-dev/reprise/platform/ax/axmac"
)

// Quartz constants (CGEventTypes.h).
const (
	cgHIDEventTap         = 0 // kCGHIDEventTap
	cgMouseMoved          = 5
	cgCombinedSessionSt   = 0          // kCGEventSourceStateCombinedSessionState
	cgAnyInputEventType   = 0xFFFFFFFF // kCGAnyInputEventType
	maxUnicodePerEvent    = 20         // what one keyboard event reliably carries
	inputPause            = 8 * time.Millisecond
	pathQuartzCoreGraphic = "/System/Library/Frameworks/CoreGraphics.framework/CoreGraphics"
	pathQuartzCoreFound   = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
)

type qPoint struct{ X, Y float64 }

var (
	qCFRelease             func(uintptr)
	qCreateMouseEvent      func(source uintptr, typ uint32, pt qPoint, button uint32) uintptr
	qCreateKeyboardEvent   func(source uintptr, key uint16, down bool) uintptr
	qKeyboardSetUnicode    func(ev uintptr, n uint, s *uint16)
	qSetFlags              func(ev uintptr, flags uint64)
	qPost                  func(tap uint32, ev uintptr)
	qSecondsSinceLastEvent func(state int32, typ uint32) float64

	qLoadOnce sync.Once
	qLoadErr  error
)

func qLoad() error {
	qLoadOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				qLoadErr = fmt.Errorf("desktop input: bind: %v", r)
			}
		}()
		cf, err := purego.Dlopen(pathQuartzCoreFound, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			qLoadErr = err
			return
		}
		cg, err := purego.Dlopen(pathQuartzCoreGraphic, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			qLoadErr = err
			return
		}
		purego.RegisterLibFunc(&qCFRelease, cf, "CFRelease")
		purego.RegisterLibFunc(&qCreateMouseEvent, cg, "CGEventCreateMouseEvent")
		purego.RegisterLibFunc(&qCreateKeyboardEvent, cg, "CGEventCreateKeyboardEvent")
		purego.RegisterLibFunc(&qKeyboardSetUnicode, cg, "CGEventKeyboardSetUnicodeString")
		purego.RegisterLibFunc(&qSetFlags, cg, "CGEventSetFlags")
		purego.RegisterLibFunc(&qPost, cg, "CGEventPost")
		purego.RegisterLibFunc(&qSecondsSinceLastEvent, cg, "CGEventSourceSecondsSinceLastEventType")
	})
	return qLoadErr
}

// quartzInput is Input on macOS: CGEventPost at the HID level.
//
// Chords: "ctrl" is Command and "super" is Control, the inverse of what
// capture/quartz records, so a skill's ctrl+c copies on every system.
// Activate finds the window by title in the window server's list (titles
// need Screen Recording permission), activates its application
// (NSRunningApplication) and raises the window through AX (AXRaise, which
// needs Accessibility permission).
type quartzInput struct{}

func newQuartzInput() (Input, error) {
	if err := qLoad(); err != nil {
		return nil, err
	}
	return quartzInput{}, nil
}

// post posts ev and releases it.
func post(ev uintptr) error {
	if ev == 0 {
		return errors.New("desktop input: Quartz made no event")
	}
	qPost(cgHIDEventTap, ev)
	qCFRelease(ev)
	return nil
}

// Click moves to x, y and clicks button there.
func (quartzInput) Click(x, y, button int) error {
	var down, up, b uint32
	switch button {
	case 1:
		down, up, b = 1, 2, 0 // kCGEventLeftMouseDown/Up, kCGMouseButtonLeft
	case 3:
		down, up, b = 3, 4, 1
	case 2:
		down, up, b = 25, 26, 2
	default:
		return fmt.Errorf("desktop input: no mouse button %d", button)
	}
	pt := qPoint{float64(x), float64(y)}
	for _, t := range []uint32{cgMouseMoved, down, up} {
		if err := post(qCreateMouseEvent(0, t, pt, b)); err != nil {
			return err
		}
		time.Sleep(inputPause)
	}
	return nil
}

// Type types text as Unicode strings on keyboard events, whatever the
// layout; newlines and tabs press Return and Tab.
func (in quartzInput) Type(text string) error {
	var chunk []uint16
	flush := func() error {
		for len(chunk) > 0 {
			n := min(len(chunk), maxUnicodePerEvent)
			for _, down := range []bool{true, false} {
				ev := qCreateKeyboardEvent(0, 0, down)
				if ev == 0 {
					return errors.New("desktop input: Quartz made no event")
				}
				qKeyboardSetUnicode(ev, uint(n), &chunk[0])
				if err := post(ev); err != nil {
					return err
				}
			}
			chunk = chunk[n:]
			time.Sleep(inputPause)
		}
		return nil
	}
	for _, r := range text {
		if r == '\n' || r == '\t' || r == '\b' {
			if err := flush(); err != nil {
				return err
			}
			if err := in.Press(Chord{Key: Keysym(r)}); err != nil {
				return err
			}
			continue
		}
		chunk = append(chunk, utf16.Encode([]rune{r})...)
	}
	return flush()
}

// modifierFlags maps the X keysyms of a Chord's modifiers to Quartz's
// modifier keys and flags.
var modifierFlags = map[uint32]struct {
	key  quartz.Keycode
	flag uint64
}{
	uint32(x11.KeyControlL): {quartz.VKCommand, quartz.FlagCommand},
	uint32(x11.KeyShiftL):   {quartz.VKShift, quartz.FlagShift},
	uint32(x11.KeyAltL):     {quartz.VKOption, quartz.FlagOption},
	uint32(x11.KeySuperL):   {quartz.VKControl, quartz.FlagControl},
}

// Press presses c's modifiers, its key, and releases them in reverse order.
func (quartzInput) Press(c Chord) error {
	code, shift, ok := quartz.KeycodeFor(x11.Keysym(c.Key))
	if !ok {
		return fmt.Errorf("desktop input: no macOS key for keysym %#x", c.Key)
	}
	var flags uint64
	var mods []quartz.Keycode
	for _, m := range c.Modifiers {
		mf, ok := modifierFlags[m]
		if !ok {
			return fmt.Errorf("desktop input: no macOS modifier for keysym %#x", m)
		}
		flags |= mf.flag
		mods = append(mods, mf.key)
	}
	if shift && flags&quartz.FlagShift == 0 {
		flags |= quartz.FlagShift
		mods = append(mods, quartz.VKShift)
	}
	key := func(k quartz.Keycode, down bool) error {
		ev := qCreateKeyboardEvent(0, uint16(k), down)
		if ev == 0 {
			return errors.New("desktop input: Quartz made no event")
		}
		qSetFlags(ev, flags)
		return post(ev)
	}
	for _, m := range mods {
		if err := key(m, true); err != nil {
			return err
		}
	}
	errDown := key(code, true)
	errUp := key(code, false)
	for i := len(mods) - 1; i >= 0; i-- {
		_ = key(mods[i], false) // release whatever happened
	}
	time.Sleep(inputPause)
	return errors.Join(errDown, errUp)
}

// Idle is the time since the last input event from anyone, ours included.
func (quartzInput) Idle() (time.Duration, error) {
	s := qSecondsSinceLastEvent(cgCombinedSessionSt, cgAnyInputEventType)
	if s < 0 {
		return 0, errors.New("desktop input: no idle time")
	}
	return time.Duration(s * float64(time.Second)), nil
}

// Activate brings the window titled title to the front.
func (quartzInput) Activate(title string) error {
	wins, err := quartz.Windows()
	if err != nil {
		return err
	}
	w, ok := quartz.FindWindow(wins, title)
	if !ok {
		return fmt.Errorf("desktop input: no window titled %q on screen (window titles need Screen Recording permission)", title)
	}
	if err := quartz.ActivateApp(w.OwnerPID); err != nil {
		return err
	}
	return axmac.RaiseWindow(w.OwnerPID, title)
}

// Close does nothing: nothing is held open.
func (quartzInput) Close() error { return nil }
