package input

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf16"

	"github.com/reprise-dev/reprise/platform/ax/axmac"
	"github.com/reprise-dev/reprise/platform/cocoa"
	"github.com/reprise-dev/reprise/platform/keys"
	"github.com/reprise-dev/reprise/platform/keys/mackey"
)

// Quartz constants (CGEventTypes.h).
const (
	cgHIDEventTap       = 0 // kCGHIDEventTap
	cgMouseMoved        = 5
	cgCombinedSessionSt = 0          // kCGEventSourceStateCombinedSessionState
	cgAnyInputEventType = 0xFFFFFFFF // kCGAnyInputEventType
	maxUnicodePerEvent  = 20         // what one keyboard event reliably carries
	inputPause          = 8 * time.Millisecond
)

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
	if err := cocoa.Load(); err != nil {
		return nil, err
	}
	return quartzInput{}, nil
}

// post posts ev and releases it.
func post(ev uintptr) error {
	if ev == 0 {
		return errors.New("input: Quartz made no event")
	}
	cocoa.CGEventPost(cgHIDEventTap, ev)
	cocoa.CFRelease(ev)
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
		return fmt.Errorf("input: no mouse button %d", button)
	}
	pt := cocoa.CGPoint{X: float64(x), Y: float64(y)}
	for _, t := range []uint32{cgMouseMoved, down, up} {
		if err := post(cocoa.CGEventCreateMouseEvent(0, t, pt, b)); err != nil {
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
				ev := cocoa.CGEventCreateKeyboardEvent(0, 0, down)
				if ev == 0 {
					return errors.New("input: Quartz made no event")
				}
				cocoa.CGEventKeyboardSetUnicodeString(ev, uint(n), &chunk[0])
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
			if err := in.Press(keys.Chord{Key: keys.KeysymFor(r)}); err != nil {
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
	key  mackey.Keycode
	flag uint64
}{
	uint32(keys.KeyControlL): {mackey.VKCommand, mackey.FlagCommand},
	uint32(keys.KeyShiftL):   {mackey.VKShift, mackey.FlagShift},
	uint32(keys.KeyAltL):     {mackey.VKOption, mackey.FlagOption},
	uint32(keys.KeySuperL):   {mackey.VKControl, mackey.FlagControl},
}

// Press presses c's modifiers, its key, and releases them in reverse order.
func (quartzInput) Press(c keys.Chord) error {
	code, shift, ok := mackey.KeycodeFor(keys.Keysym(c.Key))
	if !ok {
		return fmt.Errorf("input: no macOS key for keysym %#x", c.Key)
	}
	var flags uint64
	var mods []mackey.Keycode
	for _, m := range c.Modifiers {
		mf, ok := modifierFlags[m]
		if !ok {
			return fmt.Errorf("input: no macOS modifier for keysym %#x", m)
		}
		flags |= mf.flag
		mods = append(mods, mf.key)
	}
	if shift && flags&mackey.FlagShift == 0 {
		flags |= mackey.FlagShift
		mods = append(mods, mackey.VKShift)
	}
	key := func(k mackey.Keycode, down bool) error {
		ev := cocoa.CGEventCreateKeyboardEvent(0, uint16(k), down)
		if ev == 0 {
			return errors.New("input: Quartz made no event")
		}
		cocoa.CGEventSetFlags(ev, flags)
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
	s := cocoa.CGEventSourceSecondsSinceLastEventType(cgCombinedSessionSt, cgAnyInputEventType)
	if s < 0 {
		return 0, errors.New("input: no idle time")
	}
	return time.Duration(s * float64(time.Second)), nil
}

// Activate brings the window titled title to the front.
func (quartzInput) Activate(title string) error {
	wins, err := cocoa.Windows()
	if err != nil {
		return err
	}
	w, ok := cocoa.FindWindow(wins, title)
	if !ok {
		return fmt.Errorf("input: no window titled %q on screen (window titles need Screen Recording permission)", title)
	}
	if err := cocoa.ActivateApp(w.OwnerPID); err != nil {
		return err
	}
	return axmac.RaiseWindow(w.OwnerPID, title)
}

// Close does nothing: nothing is held open.
func (quartzInput) Close() error { return nil }
