package desktop

import (
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// leaseSelection is the X selection whose owner holds the desktop lease
// of a display; leaseHolder is the property on the owner's window that
// says who it is.
const (
	leaseSelection = "_REPRISE_DESKTOP_LEASE"
	leaseHolder    = "_REPRISE_DESKTOP_LEASE_HOLDER"
)

// leaseRecheck is how often a wait on an X lease looks at the selection
// again: for a release the watch missed (the owner went between a look
// and the watch), or an owner that let it go without destroying its
// window.
const leaseRecheck = 250 * time.Millisecond

// xgb's complaints (no ~/.Xauthority) are not the replay's: set once,
// before any connection reads it.
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// displayLock is the lease of an X display: the selection on the display
// itself, so every replay that can send input there (any user, any data
// dir, any daemon, even over a forwarded connection) contends for the
// same lock, and the X server drops it with the holder's connection. The
// console (no DISPLAY) falls back to a file in the user's cache dir.
func displayLock(display string) (locker, error) {
	if display == "" {
		return sessionFile("console")
	}
	return xLock{display: display}, nil
}

// xLock is the lease as the owner of an X selection.
type xLock struct{ display string }

func (x xLock) take(note string) (func(), string, error) {
	conn, err := xgb.NewConnDisplay(x.display)
	if err != nil {
		return nil, "", fmt.Errorf("connect to %s: %w", x.display, err)
	}
	release, holder, err := takeSelection(conn, note)
	if err != nil {
		conn.Close()
		return nil, holder, err
	}
	return release, "", nil
}

// takeSelection owns the lease's selection on conn when nobody does. The
// look and the take run under a server grab: no other client's request
// comes between them, so two takers cannot both see it free.
func takeSelection(conn *xgb.Conn, note string) (func(), string, error) {
	screen := xproto.Setup(conn).DefaultScreen(conn)
	sel, err := atom(conn, leaseSelection)
	if err != nil {
		return nil, "", err
	}
	noteAtom, err := atom(conn, leaseHolder)
	if err != nil {
		return nil, "", err
	}
	win, err := xproto.NewWindowId(conn)
	if err != nil {
		return nil, "", err
	}
	// An input-only window never mapped: the owner, and where the note is.
	if err := xproto.CreateWindowChecked(conn, 0, win, screen.Root, -1, -1, 1, 1, 0,
		xproto.WindowClassInputOnly, 0, 0, nil).Check(); err != nil {
		return nil, "", fmt.Errorf("create the lease's window: %w", err)
	}
	if err := xproto.ChangePropertyChecked(conn, xproto.PropModeReplace, win, noteAtom, xproto.AtomString, 8,
		uint32(len(note)), []byte(note)).Check(); err != nil {
		return nil, "", fmt.Errorf("write the lease's note: %w", err)
	}
	if err := xproto.GrabServerChecked(conn).Check(); err != nil {
		return nil, "", fmt.Errorf("grab the X server: %w", err)
	}
	owner, err := xproto.GetSelectionOwner(conn, sel).Reply()
	if err == nil && owner.Owner == xproto.WindowNone {
		xproto.SetSelectionOwner(conn, win, sel, xproto.TimeCurrentTime)
		owner, err = xproto.GetSelectionOwner(conn, sel).Reply()
	}
	_ = xproto.UngrabServerChecked(conn).Check()
	if err != nil {
		return nil, "", fmt.Errorf("the lease's selection owner: %w", err)
	}
	if owner.Owner != win {
		return nil, holderOf(conn, owner.Owner, noteAtom), errHeld
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			// The owner's window going takes the selection with it; the
			// round trip makes it so before release returns.
			xproto.DestroyWindow(conn, win)
			_, _ = xproto.GetInputFocus(conn).Reply()
			conn.Close()
		})
	}, "", nil
}

// holderOf reads the note on the owner's window.
func holderOf(conn *xgb.Conn, owner xproto.Window, noteAtom xproto.Atom) string {
	r, err := xproto.GetProperty(conn, false, owner, noteAtom, xproto.GetPropertyTypeAny, 0, 256).Reply()
	if err != nil || r == nil || len(r.Value) == 0 {
		return "a program that did not say which"
	}
	return string(r.Value)
}

func atom(conn *xgb.Conn, name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("intern %s: %w", name, err)
	}
	return r.Atom, nil
}

// changed watches the lease on a connection of its own: it is ready
// whenever a look finds the selection free, and at once when the owner's
// window is destroyed (a release, or its holder's connection closed):
// DestroyNotify is a core-protocol event, so no extension is initialized,
// which would write xgb's global tables while other connections read them.
func (x xLock) changed() (<-chan struct{}, func()) {
	c := make(chan struct{}, 1)
	done := make(chan struct{})
	notify := func() {
		select {
		case c <- struct{}{}:
		default:
		}
	}
	conn, err := xgb.NewConnDisplay(x.display)
	if err != nil {
		return tick(c, done, notify), func() { close(done) }
	}
	go func() {
		for {
			ev, err := conn.WaitForEvent()
			if ev == nil && err == nil {
				return // closed
			}
			if _, ok := ev.(xproto.DestroyNotifyEvent); ok {
				notify()
			}
		}
	}()
	go func() {
		sel, err := atom(conn, leaseSelection)
		if err != nil {
			sel = xproto.AtomNone
		}
		var watched xproto.Window
		t := time.NewTicker(leaseRecheck)
		defer t.Stop()
		for {
			owner, err := xproto.GetSelectionOwner(conn, sel).Reply()
			switch {
			case err != nil || sel == xproto.AtomNone || owner.Owner == xproto.WindowNone:
				notify()
			case owner.Owner != watched:
				// A window already gone is a BadWindow error, and the
				// next look finds the selection free or owned anew.
				watched = owner.Owner
				xproto.ChangeWindowAttributes(conn, watched, xproto.CwEventMask, []uint32{xproto.EventMaskStructureNotify})
				notify() // a new owner since the last look: look again
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return c, func() { close(done); conn.Close() }
}

// tick notifies every leaseRecheck until done.
func tick(c chan struct{}, done chan struct{}, notify func()) <-chan struct{} {
	go func() {
		t := time.NewTicker(leaseRecheck)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				notify()
			}
		}
	}()
	return c
}
