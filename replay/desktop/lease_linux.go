package desktop

import (
	"cmp"
	"fmt"
	"io"
	"log"
	"strings"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// The X selections of a lock named NAME: _REPRISE_DESKTOP_NAME's owner
// holds it (_REPRISE_DESKTOP_LEASE for the replay lease), and
// _REPRISE_DESKTOP_NAME_NEXT's owner, a holder waiting, has the next
// turn. The leaseHolder property on an owner's window says who it is.
const (
	selectionPrefix = "_REPRISE_DESKTOP_"
	leaseHolder     = "_REPRISE_DESKTOP_LEASE_HOLDER"
)

// leaseRecheck is how often a wait on an X lease looks at the selections
// again: for a release the watch missed (the owner went between a look
// and the watch), or an owner that let it go without destroying its
// window.
const leaseRecheck = 250 * time.Millisecond

// xgb's complaints (no ~/.Xauthority) are not the replay's: set once,
// before any connection reads it.
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// displayLock is the lease of an X display: a selection on the display
// itself, so every replay that can send input there (any user, any data
// dir, any daemon, even over a forwarded connection) contends for the
// same lock, and the X server drops it with the holder's connection, a
// killed holder's included. The console (no DISPLAY) falls back to a
// file in the user's cache dir.
func displayLock(display, name string) (locker, error) {
	if display == "" {
		return sessionFile("console", name)
	}
	sel := selectionPrefix + strings.ToUpper(fileSafe(cmp.Or(name, "lease")))
	return xLock{display: display, sel: sel, next: sel + "_NEXT"}, nil
}

// xLock is a lock as the owner of an X selection.
type xLock struct{ display, sel, next string }

// xSession is one hold: a connection of its own with an unmapped
// input-only window, which owns the lease's selection while held (or the
// next turn's while waiting) and carries the note.
type xSession struct {
	display string
	conn    *xgb.Conn
	win     xproto.Window
	sel     xproto.Atom // the lock's selection
	next    xproto.Atom // its next turn's
	note    xproto.Atom // leaseHolder

	watch     chan struct{}
	stopWatch func()
	once      sync.Once
}

func (x xLock) open(note string) (session, error) {
	conn, err := xgb.NewConnDisplay(x.display)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", x.display, err)
	}
	s := &xSession{display: x.display, conn: conn}
	if err := s.init(x, note); err != nil {
		conn.Close()
		return nil, err
	}
	return s, nil
}

func (s *xSession) init(x xLock, note string) error {
	var err error
	for _, a := range []struct {
		to   *xproto.Atom
		name string
	}{{&s.sel, x.sel}, {&s.next, x.next}, {&s.note, leaseHolder}} {
		if *a.to, err = atom(s.conn, a.name); err != nil {
			return err
		}
	}
	screen := xproto.Setup(s.conn).DefaultScreen(s.conn)
	if s.win, err = xproto.NewWindowId(s.conn); err != nil {
		return err
	}
	if err := xproto.CreateWindowChecked(s.conn, 0, s.win, screen.Root, -1, -1, 1, 1, 0,
		xproto.WindowClassInputOnly, 0, 0, nil).Check(); err != nil {
		return fmt.Errorf("create the lease's window: %w", err)
	}
	if err := xproto.ChangePropertyChecked(s.conn, xproto.PropModeReplace, s.win, s.note, xproto.AtomString, 8,
		uint32(len(note)), []byte(note)).Check(); err != nil {
		return fmt.Errorf("write the lease's note: %w", err)
	}
	return nil
}

// try owns the lease's selection when nobody does and no other waiter
// has the next turn; else it takes the next turn when that is free. The
// looks and the takes run under a server grab: no other client's request
// comes between them, so two takers cannot both see it free.
func (s *xSession) try() (func(), string, error) {
	c := s.conn
	if err := xproto.GrabServerChecked(c).Check(); err != nil {
		return nil, "", fmt.Errorf("grab the X server: %w", err)
	}
	owner, err := xproto.GetSelectionOwner(c, s.sel).Reply()
	var next *xproto.GetSelectionOwnerReply
	if err == nil {
		next, err = xproto.GetSelectionOwner(c, s.next).Reply()
	}
	took := false
	if err == nil {
		switch {
		case owner.Owner == xproto.WindowNone && (next.Owner == xproto.WindowNone || next.Owner == s.win):
			xproto.SetSelectionOwner(c, s.win, s.sel, xproto.TimeCurrentTime)
			if next.Owner == s.win {
				xproto.SetSelectionOwner(c, xproto.WindowNone, s.next, xproto.TimeCurrentTime)
			}
			owner, err = xproto.GetSelectionOwner(c, s.sel).Reply()
			took = err == nil && owner.Owner == s.win
		case next.Owner == xproto.WindowNone:
			// Queue: the holder, letting go, cannot take it straight back.
			xproto.SetSelectionOwner(c, s.win, s.next, xproto.TimeCurrentTime)
		}
	}
	_ = xproto.UngrabServerChecked(c).Check()
	if err != nil {
		return nil, "", fmt.Errorf("the lease's selection owner: %w", err)
	}
	if took {
		s.stop()
		return s.release, "", nil
	}
	holder := owner.Owner
	if holder == xproto.WindowNone {
		holder = next.Owner // free, but it is another waiter's turn
	}
	return nil, s.holderOf(holder), errHeld
}

// release lets the lease go: the owner's window going takes the selection
// with it, and the round trip makes it so before release returns.
func (s *xSession) release() {
	s.once.Do(func() {
		xproto.DestroyWindow(s.conn, s.win)
		_, _ = xproto.GetInputFocus(s.conn).Reply()
		s.conn.Close()
	})
}

func (s *xSession) close() {
	s.stop()
	s.release()
}

func (s *xSession) stop() {
	if s.stopWatch != nil {
		s.stopWatch()
		s.stopWatch = nil
	}
}

// holderOf reads the note on an owner's window.
func (s *xSession) holderOf(owner xproto.Window) string {
	r, err := xproto.GetProperty(s.conn, false, owner, s.note, xproto.GetPropertyTypeAny, 0, 256).Reply()
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

// changed watches the lease on a connection of its own, started at the
// first wait: it is ready whenever a look finds the lease free or owned
// anew, and at once when the owner's window is destroyed (a release, or
// its holder's connection closed). DestroyNotify is a core-protocol
// event: no extension is initialized, which would write xgb's global
// tables while other connections read them.
func (s *xSession) changed() <-chan struct{} {
	if s.watch != nil {
		return s.watch
	}
	c := make(chan struct{}, 1)
	s.watch = c
	done := make(chan struct{})
	notify := func() {
		select {
		case c <- struct{}{}:
		default:
		}
	}
	conn, err := xgb.NewConnDisplay(s.display)
	if err != nil {
		go poll(done, notify) // no watch: look again now and then
		s.stopWatch = func() { close(done) }
		return c
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
		var watched xproto.Window
		t := time.NewTicker(leaseRecheck)
		defer t.Stop()
		for {
			owner, err := xproto.GetSelectionOwner(conn, s.sel).Reply()
			switch {
			case err != nil || owner.Owner == xproto.WindowNone:
				notify()
			case owner.Owner != watched:
				// A window already gone is a BadWindow error, and the
				// next look finds the lease free or owned anew.
				watched = owner.Owner
				xproto.ChangeWindowAttributes(conn, watched, xproto.CwEventMask, []uint32{xproto.EventMaskStructureNotify})
				notify() // owned anew: a waiter takes the next turn
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	s.stopWatch = func() { close(done); conn.Close() }
	return c
}

// poll notifies every leaseRecheck until done.
func poll(done chan struct{}, notify func()) {
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
}
