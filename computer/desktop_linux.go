package computer

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/platform/ax/atspi"
)

// x11Desktop lists an X display's managed windows through EWMH, and tells
// a focused password field through AT-SPI.
type x11Desktop struct {
	mu    sync.Mutex
	conn  *xgb.Conn
	root  xproto.Window
	atoms map[string]xproto.Atom
	a11y  *atspi.Enricher
}

// OpenDesktop connects to the X display (DISPLAY when display is "").
func OpenDesktop(display string) (Desktop, error) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	conn, err := xgb.NewConnDisplay(display)
	if err != nil {
		return nil, fmt.Errorf("connect to the X display: %w", err)
	}
	d := &x11Desktop{conn: conn, root: xproto.Setup(conn).DefaultScreen(conn).Root, atoms: map[string]xproto.Atom{}}
	for _, name := range []string{"_NET_CLIENT_LIST_STACKING", "_NET_ACTIVE_WINDOW", "_NET_WM_NAME", "_NET_WM_PID", "UTF8_STRING"} {
		r, err := xproto.InternAtom(conn, false, uint16(len(name)), name).Reply()
		if err != nil {
			conn.Close()
			return nil, fmt.Errorf("intern %s: %w", name, err)
		}
		d.atoms[name] = r.Atom
	}
	if d.a11y, err = atspi.New(atspi.Options{Display: display, Timeout: time.Second}); err != nil {
		conn.Close()
		return nil, err
	}
	return d, nil
}

// Windows lists the managed windows front to back: EWMH stacks them
// bottom to top.
func (d *x11Desktop) Windows(context.Context) ([]Window, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, err := xproto.GetProperty(d.conn, false, d.root, d.atoms["_NET_CLIENT_LIST_STACKING"], xproto.AtomWindow, 0, 4096).Reply()
	if err != nil {
		return nil, fmt.Errorf("list windows: %w", err)
	}
	if r.Format != 32 {
		return nil, fmt.Errorf("list windows: the window manager publishes no _NET_CLIENT_LIST_STACKING (EWMH)")
	}
	var active xproto.Window
	if a, err := xproto.GetProperty(d.conn, false, d.root, d.atoms["_NET_ACTIVE_WINDOW"], xproto.AtomWindow, 0, 1).Reply(); err == nil && len(a.Value) >= 4 {
		active = xproto.Window(xgb.Get32(a.Value))
	}
	var out []Window
	for i := len(r.Value) - 4; i >= 0; i -= 4 {
		w := xproto.Window(xgb.Get32(r.Value[i:]))
		win, ok := d.window(w)
		if !ok {
			continue // gone since the list was read
		}
		win.Focused = w == active
		out = append(out, win)
	}
	return out, nil
}

func (d *x11Desktop) window(w xproto.Window) (Window, bool) {
	g, err := xproto.GetGeometry(d.conn, xproto.Drawable(w)).Reply()
	if err != nil {
		return Window{}, false
	}
	at, err := xproto.TranslateCoordinates(d.conn, w, d.root, 0, 0).Reply()
	if err != nil {
		return Window{}, false
	}
	win := Window{ID: "0x" + strconv.FormatUint(uint64(w), 16),
		Bounds: image.Rect(int(at.DstX), int(at.DstY), int(at.DstX)+int(g.Width), int(at.DstY)+int(g.Height))}
	if p, err := xproto.GetProperty(d.conn, false, w, d.atoms["_NET_WM_NAME"], d.atoms["UTF8_STRING"], 0, 1024).Reply(); err == nil && len(p.Value) > 0 {
		win.Title = string(p.Value)
	} else if p, err := xproto.GetProperty(d.conn, false, w, xproto.AtomWmName, xproto.AtomString, 0, 1024).Reply(); err == nil {
		win.Title = string(p.Value)
	}
	if p, err := xproto.GetProperty(d.conn, false, w, d.atoms["_NET_WM_PID"], xproto.AtomCardinal, 0, 1).Reply(); err == nil && len(p.Value) >= 4 {
		win.PID = int(xgb.Get32(p.Value))
		if comm, err := os.ReadFile("/proc/" + strconv.Itoa(win.PID) + "/comm"); err == nil {
			win.App = strings.TrimSpace(string(comm))
		}
	}
	var class string
	if p, err := xproto.GetProperty(d.conn, false, w, xproto.AtomWmClass, xproto.AtomString, 0, 256).Reply(); err == nil {
		class = string(p.Value)
	}
	if win.App == "" {
		// No PID (a remote client): the instance part of WM_CLASS.
		win.App, _, _ = strings.Cut(class, "\x00")
	}
	win.Identity = identity(win.PID, procStart(win.PID), procExe(win.PID), class)
	return win, true
}

// procStart is when process pid started, in clock ticks since boot (the
// 22nd field of /proc/PID/stat): a pid the kernel reuses has another.
func procStart(pid int) string {
	if pid <= 0 {
		return ""
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 20 {
		return ""
	}
	return f[19] // field 22, counting from the pid
}

// procExe is process pid's executable, "" when it cannot be read (another
// user's process).
func procExe(pid int) string {
	if pid <= 0 {
		return ""
	}
	exe, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	return exe
}

// SecureInput says the keyboard focus is in a password field of the
// active window. Without the accessibility bus it cannot tell, and says
// so: no capture and no input on a guess.
func (d *x11Desktop) SecureInput(ctx context.Context) (bool, error) {
	nodes, err := d.a11y.List(ctx, "", 5000)
	if err != nil && !errors.Is(err, atspi.ErrNoWindow) {
		return false, fmt.Errorf("cannot tell whether a password is being typed: %w", err)
	}
	for _, n := range nodes {
		if n.Password && n.Focused {
			return true, nil
		}
	}
	return false, nil
}

// Parents returns the chain of parent processes of pid, nearest first,
// up to init: the terminal running reprise and its shells.
func Parents(pid int) []int {
	var out []int
	for range 64 {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			break
		}
		// The command sits in parentheses and may hold spaces: the fields
		// after its closing one are state, then the parent's pid.
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 2 {
			break
		}
		ppid, err := strconv.Atoi(f[1])
		if err != nil || ppid <= 1 {
			break
		}
		out = append(out, ppid)
		pid = ppid
	}
	return out
}

// ownIntegrity: X11 has no integrity levels.
func ownIntegrity() int { return 0 }
