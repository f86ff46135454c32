package input

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/platform/keys"
)

// winInput is Input through SendInput.
type winInput struct{}

func newWinInput() (Input, error) {
	if err := procSendInput.Find(); err != nil {
		return nil, fmt.Errorf("user32.dll has no SendInput: %w", err)
	}
	return winInput{}, nil
}

// normalize maps a virtual-screen coordinate onto SendInput's absolute
// 0..65535 range over the virtual screen that starts at origin and is size
// pixels long.
func normalize(v, origin, size int) int32 {
	if size <= 1 {
		return 0
	}
	n := ((v-origin)*65535 + (size-1)/2) / (size - 1)
	return int32(min(max(n, 0), 65535))
}

func (winInput) Click(x, y, button int) error {
	var down, up uint32
	switch button {
	case 1:
		down, up = mouseeventfLeftDown, mouseeventfLeftUp
	case 2:
		down, up = mouseeventfMiddleDown, mouseeventfMiddleUp
	case 3:
		down, up = mouseeventfRightDown, mouseeventfRightUp
	default:
		return fmt.Errorf("click: no mouse button %d (1 left, 2 middle, 3 right)", button)
	}
	target := win32.WindowFromPoint(x, y)
	if err := checkTarget(target); err != nil {
		return err
	}
	defer settle(target)
	in := make([]mouseInput, 3)
	for i := range in {
		in[i].typ = inputMouse
	}
	in[0].mi.dx = normalize(x, win32.SystemMetric(smXVirtualScreen), win32.SystemMetric(smCXVirtualScreen))
	in[0].mi.dy = normalize(y, win32.SystemMetric(smYVirtualScreen), win32.SystemMetric(smCYVirtualScreen))
	// The press and the release carry the point too, so each lands there
	// even when the pointer moved after moveTo saw it arrive: under a busy
	// Wine a replay's first click once pressed where the person's pointer
	// had rested (a form's OK), with moveTo satisfied.
	at := uint32(mouseeventfMove | mouseeventfAbsolute | mouseeventfVirtualDesk)
	for i := range in {
		in[i].mi.dx, in[i].mi.dy = in[0].mi.dx, in[0].mi.dy
	}
	in[0].mi.flags = at
	in[1].mi.flags, in[2].mi.flags = at|down, at|up
	// The pointer must be there before the press: a click anywhere else
	// is worse than no click. Under Wine an X motion still queued could
	// put the pointer back where it was.
	if err := moveTo(in[0], x, y); err != nil {
		return err
	}
	// Press and release one at a time, paced like a hand (a button under
	// Wine lost clicks sent as one batch).
	for i := 1; i < len(in); i++ {
		time.Sleep(clickPace)
		if err := sendMouse(in[i : i+1]); err != nil {
			return fmt.Errorf("click at %d,%d: %w", x, y, err)
		}
	}
	return nil
}

// moveTo sends move (an absolute move to x, y) until the pointer is there
// and stays there: under Wine an X motion still in flight can put it back
// where it was a moment after it arrived.
func moveTo(move mouseInput, x, y int) error {
	there := func() bool {
		cx, cy, err := win32.CursorPos()
		return err == nil && max(cx-x, x-cx) <= 1 && max(cy-y, y-cy) <= 1
	}
	for try := 0; try < 5; try++ {
		if err := sendMouse([]mouseInput{move}); err != nil {
			return fmt.Errorf("move the pointer to %d,%d: %w", x, y, err)
		}
		for deadline := time.Now().Add(100 * time.Millisecond); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if there() {
				time.Sleep(settleMove)
				if there() {
					return nil
				}
				break
			}
		}
	}
	cx, cy, _ := win32.CursorPos()
	return fmt.Errorf("the pointer did not stay at %d,%d (it is at %d,%d); not clicking", x, y, cx, cy)
}

// settleMove is how long the pointer must stay where it was moved.
const settleMove = 50 * time.Millisecond

// clickPace is the gap between a click's move, press and release.
const clickPace = 30 * time.Millisecond

// unicodeKeys are the key presses that type text as UTF-16 units, with
// Enter, Tab and Backspace as the keys themselves.
func unicodeKeys(text string) []keyInput {
	var in []keyInput
	add := func(vk, scan uint16, flags uint32) {
		var k keyInput
		k.typ = inputKeyboard
		k.ki.vk, k.ki.scan, k.ki.flags = vk, scan, flags
		in = append(in, k, k)
		in[len(in)-1].ki.flags |= keyeventfKeyUp
	}
	for _, u := range windows.StringToUTF16(text) {
		switch u {
		case 0:
		case '\n':
			add(0x0d, 0, 0)
		case '\t':
			add(0x09, 0, 0)
		case '\b':
			add(0x08, 0, 0)
		default:
			add(0, u, keyeventfUnicode)
		}
	}
	return in
}

func (winInput) Type(text string) error {
	in := unicodeKeys(text)
	if len(in) == 0 {
		return nil
	}
	if err := checkTarget(windows.GetForegroundWindow()); err != nil {
		return err
	}
	if err := sendKeys(in); err != nil {
		return fmt.Errorf("type the value: %w", err)
	}
	return nil
}

// vkOfKeysym maps the X keysyms a Chord holds to virtual keys.
var vkOfKeysym = map[uint32]uint16{
	0xffe3: 0x11, 0xffe4: 0x11, 0xffe1: 0x10, 0xffe2: 0x10, 0xffe9: 0x12, 0xffea: 0x12,
	0xffeb: 0x5b, 0xffec: 0x5c,
	0xff09: 0x09, 0xff0d: 0x0d, 0xff1b: 0x1b, 0xff08: 0x08, 0xffff: 0x2e, 0xff63: 0x2d,
	0xff50: 0x24, 0xff57: 0x23, 0xff51: 0x25, 0xff52: 0x26, 0xff53: 0x27, 0xff54: 0x28,
	0xff55: 0x21, 0xff56: 0x22, 0x20: 0x20,
}

// extendedVK are the keys SendInput must flag KEYEVENTF_EXTENDEDKEY.
var extendedVK = map[uint16]bool{
	0x21: true, 0x22: true, 0x23: true, 0x24: true, 0x25: true, 0x26: true, 0x27: true,
	0x28: true, 0x2d: true, 0x2e: true, 0x5b: true, 0x5c: true,
}

// vkOf returns the virtual key of keysym sym, and whether it needs Shift.
func vkOf(sym uint32) (uint16, bool, error) {
	if vk, ok := vkOfKeysym[sym]; ok {
		return vk, false, nil
	}
	switch {
	case sym >= 0xffbe && sym <= 0xffd5: // F1..F24
		return uint16(0x70 + sym - 0xffbe), false, nil
	case sym >= 'a' && sym <= 'z':
		return uint16(sym - 'a' + 'A'), false, nil
	case sym >= 'A' && sym <= 'Z', sym >= '0' && sym <= '9':
		return uint16(sym), false, nil
	case sym >= 0x20 && sym <= 0xff:
		if vk, shift, ok := vkKeyScan(rune(sym)); ok {
			return vk, shift, nil
		}
	}
	return 0, false, fmt.Errorf("no key on this keyboard layout for keysym %#x", sym)
}

func (winInput) Press(c keys.Chord) error {
	var downs []keyInput
	key := func(vk uint16) {
		var k keyInput
		k.typ = inputKeyboard
		k.ki.vk = vk
		if extendedVK[vk] {
			k.ki.flags = keyeventfExtendedKey
		}
		downs = append(downs, k)
	}
	for _, m := range c.Modifiers {
		vk, _, err := vkOf(m)
		if err != nil {
			return err
		}
		key(vk)
	}
	vk, shift, err := vkOf(c.Key)
	if err != nil {
		return err
	}
	if shift {
		key(0x10)
	}
	key(vk)
	in := append([]keyInput(nil), downs...)
	for i := len(downs) - 1; i >= 0; i-- {
		up := downs[i]
		up.ki.flags |= keyeventfKeyUp
		in = append(in, up)
	}
	if err := checkTarget(windows.GetForegroundWindow()); err != nil {
		return err
	}
	if err := sendKeys(in); err != nil {
		return fmt.Errorf("press the chord: %w", err)
	}
	return nil
}

func (winInput) Idle() (time.Duration, error) {
	last, now, err := lastInputTicks()
	if err != nil {
		return 0, fmt.Errorf("read the time of the last input: %w", err)
	}
	return time.Duration(now-last) * time.Millisecond, nil // uint32: wraps as the ticks do
}

// Windows found by title: EnumWindows's callback is created once, and one
// search runs at a time.
var (
	enumMu    sync.Mutex
	enumTitle string
	enumFound windows.HWND
	enumProc  = windows.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
		if windows.IsWindowVisible(h) && win32.WindowText(h) == enumTitle {
			enumFound = h
			return 0 // stop
		}
		return 1
	})
)

// windowNamed finds a visible top-level window by its title.
func windowNamed(title string) (windows.HWND, error) {
	enumMu.Lock()
	defer enumMu.Unlock()
	enumTitle, enumFound = title, 0
	_ = windows.EnumWindows(enumProc, unsafe.Pointer(nil)) // fails when the callback stops it early
	if enumFound == 0 {
		return 0, fmt.Errorf("no window titled %q is open", title)
	}
	return enumFound, nil
}

var errNotForeground = errors.New("windows did not bring it to the front")

// Activate brings the window titled title to the front and waits until it
// is the foreground window. Windows lets a process take the foreground only
// just after input, so an Alt tap precedes a second try.
func (w winInput) Activate(title string) error {
	h, err := windowNamed(title)
	if err != nil {
		return err
	}
	if r, _, _ := procIsIconic.Call(uintptr(h)); r != 0 {
		procShowWindow.Call(uintptr(h), swRestore)
	}
	for try := 0; try < 2; try++ {
		procSetForegroundWindow.Call(uintptr(h))
		for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if windows.GetForegroundWindow() == h {
				return nil
			}
		}
		_ = w.Press(keys.Chord{Key: 0xffe9}) // Alt alone
	}
	return fmt.Errorf("activate %q: %w", title, errNotForeground)
}

func (winInput) Close() error { return nil }
