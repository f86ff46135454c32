package computer

import (
	"image"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/ops"
)

// ownWindow maps a window that says it belongs to this process.
func ownWindow(t *testing.T, display, title string) {
	t.Helper()
	c, err := xgb.NewConnDisplay(display)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	screen := xproto.Setup(c).DefaultScreen(c)
	w, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(c, screen.RootDepth, w, screen.Root, 50, 50, 300, 200, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, 0, nil).Check(); err != nil {
		t.Fatal(err)
	}
	atom := func(name string) xproto.Atom {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			t.Fatal(err)
		}
		return r.Atom
	}
	set := func(prop, typ xproto.Atom, format byte, data []byte) {
		if err := xproto.ChangePropertyChecked(c, xproto.PropModeReplace, w, prop, typ, format, uint32(len(data))/uint32(format/8), data).Check(); err != nil {
			t.Fatal(err)
		}
	}
	set(atom("_NET_WM_NAME"), atom("UTF8_STRING"), 8, []byte(title))
	pid := make([]byte, 4)
	xgb.Put32(pid, uint32(os.Getpid()))
	set(atom("_NET_WM_PID"), xproto.AtomCardinal, 32, pid)
	if err := xproto.MapWindowChecked(c, w).Check(); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls f, a check of the desktop's state, until it holds.
func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !f(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen within 20 s", what)
		}
	}
}

// TestGrantsUnderXvfb runs the grant rules on a real X desktop with GTK
// apps on the accessibility bus: refused windows listed with their
// reasons, a window that moves between the look and the click, a password
// field that stops everything, a window grant revoked when its window
// closes.
func TestGrantsUnderXvfb(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	notes, notesID := d.Zenity(t, nil, "--entry", "--title", "Notes", "--text", "Note")
	d.Zenity(t, nil, "--entry", "--title", "Unlock Keyring", "--text", "Keyring")
	ownWindow(t, d.Display, "reprise test window")
	desk, err := OpenDesktop(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	audit := &auditLog{}
	b := NewBroker(desk, Policy{Self: []int{os.Getpid()}}, audit, nil)
	ctx := t.Context()

	var ts []api.Target
	waitFor(t, "three windows listed", func() bool {
		ts, err = b.Targets(ctx)
		return err == nil && len(ts) >= 3
	})
	byTitle := map[string]api.Target{}
	for _, tg := range ts {
		byTitle[tg.Title] = tg
	}
	for title, want := range map[string]string{"Notes": "", "Unlock Keyring": ops.CodeComputerTargetDenyListed, "reprise test window": ops.CodeComputerSelfTargetRefused} {
		if got, ok := byTitle[title]; !ok || got.Refused != want {
			t.Errorf("%s: listed %v, refused %q (%s); want %q", title, ok, got.Refused, got.Reason, want)
		}
	}
	if n := byTitle["Notes"]; n.App != "zenity" || n.PID != notes.Process.Pid || n.Bounds.Empty() {
		t.Errorf("Notes = %+v; want zenity's window with its pid and bounds", n)
	}

	g, abort, err := b.Create(ctx, GrantRequest{Scope: ScopeWindow, TargetID: byTitle["Notes"].ID, Capture: CapturePixels, Issuer: IssuerUser})
	if err != nil {
		t.Fatal(err)
	}
	basis, _, err := b.Measure(ctx, g.ID, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "click", Point: &image.Point{X: 5, Y: 5}, Basis: &basis}); err != nil {
		t.Fatalf("a click on a fresh basis: %v", err)
	}
	// The window moves between the screenshot and the click.
	if _, err := d.Xdotool(ctx, "windowmove", "--sync", notesID, "400", "300"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the move seen", func() bool {
		_, w, err := b.Measure(ctx, g.ID, true)
		return err == nil && w.Bounds != basis.Bounds
	})
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "click", Point: &image.Point{X: 5, Y: 5}, Basis: &basis}); code(err) != ops.CodeComputerStaleBasis && code(err) != ops.CodeComputerStaleRevision {
		t.Errorf("a click on the basis from before the move: %v; want it refused as stale", err)
	}
	basis, _, _ = b.Measure(ctx, g.ID, true)
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "click", Point: &image.Point{X: basis.Bounds.Dx(), Y: 5}, Basis: &basis}); code(err) != ops.CodeComputerOutOfBounds {
		t.Errorf("a click right of the window: %v; want %s", err, ops.CodeComputerOutOfBounds)
	}

	// A password field takes the focus: no capture and no input anywhere.
	pw, _ := d.Zenity(t, nil, "--password", "--title", "Sign in")
	waitFor(t, "the password field seen as focused", func() bool {
		secure, err := desk.SecureInput(ctx)
		return err == nil && secure
	})
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "type", Point: &image.Point{X: 5, Y: 5}, Basis: &basis, TextLen: 4}); code(err) != ops.CodeComputerSecureInputRefused {
		t.Errorf("input while a password is typed: %v; want %s", err, ops.CodeComputerSecureInputRefused)
	}
	if _, _, err := b.Measure(ctx, g.ID, true); code(err) != ops.CodeComputerSecureInputRefused {
		t.Errorf("a screenshot while a password is typed: %v; want %s", err, ops.CodeComputerSecureInputRefused)
	}
	_ = pw.Process.Kill()
	waitFor(t, "the password field gone", func() bool {
		secure, err := desk.SecureInput(ctx)
		return err == nil && !secure
	})

	// The pinned window closes: its grant is revoked.
	_ = notes.Process.Kill()
	waitFor(t, "the grant revoked", func() bool {
		_, _, err := b.Measure(ctx, g.ID, false)
		return code(err) == ops.CodeComputerGrantRevoked || code(err) == ops.CodeComputerNoGrant
	})
	select {
	case <-abort:
	default:
		t.Error("the revoked grant did not abort its holder")
	}
	for _, e := range audit.entries {
		if e["text_length"] != "" && e["text_length"] != "4" {
			t.Errorf("audit entry %v", e)
		}
	}
}

// TestConnectedProgramsAreNotTargets: a program connected to the daemon's
// client port (as `reprise computer run` is) is refused as a target, found
// from the OS's socket table (issue 32: the terminal that ran the script
// received its text); a window's identity names its owner's executable.
func TestConnectedProgramsAreNotTargets(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	d.Zenity(t, nil, "--entry", "--title", "Notes", "--text", "Note")
	ownWindow(t, d.Display, "a terminal running reprise computer run")
	desk, err := OpenDesktop(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	b := NewBroker(desk, Policy{Callers: func() []int {
		pids, err := ConnectedPIDs(port)
		if err != nil {
			t.Error(err)
		}
		return pids
	}}, &auditLog{}, nil)
	listed := func() map[string]api.Target {
		byTitle := map[string]api.Target{}
		waitFor(t, "two windows listed", func() bool {
			ts, err := b.Targets(t.Context())
			for _, tg := range ts {
				byTitle[tg.Title] = tg
			}
			return err == nil && len(byTitle) >= 2
		})
		return byTitle
	}
	if got := listed()["a terminal running reprise computer run"]; got.Refused != "" {
		t.Fatalf("refused %s before it connected", got.Refused)
	}
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	byTitle := listed()
	if got := byTitle["a terminal running reprise computer run"]; got.Refused != ops.CodeComputerSelfTargetRefused {
		t.Errorf("the connected program's window: refused %q (%s); want %s", got.Refused, got.Reason, ops.CodeComputerSelfTargetRefused)
	}
	notes := byTitle["Notes"]
	if notes.Refused != "" {
		t.Errorf("Notes, not connected, is refused: %s", notes.Reason)
	}
	exe, _ := os.Readlink("/proc/" + strconv.Itoa(notes.PID) + "/exe")
	if exe == "" || !strings.Contains(notes.Identity, exe) {
		t.Errorf("Notes's identity %q does not name its executable %q", notes.Identity, exe)
	}
}

func TestConnectedToParsesProcNetTCP(t *testing.T) {
	for _, tc := range []struct {
		line  string
		inode string
		ok    bool
	}{
		{"   1: 0100007F:A1B2 0100007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 123456 1 0000000000000000 20 4 30 10 -1", "123456", true},
		{"   2: 0100007F:1F90 0100007F:A1B2 01 00000000:00000000 00:00000000 00000000     0        0 123457 1 0000000000000000 20 4 30 10 -1", "", false}, // the server's side
		{"   3: 0100007F:A1B3 0100007F:1F90 06 00000000:00000000 00:00000000 00000000     0        0 0 1", "", false},                                     // TIME_WAIT
		{"   4: 0100007F:A1B3 0100007F:ZZZZ 01 x x x 0 0 5", "", false},
		{"garbage", "", false},
	} {
		inode, ok := connectedTo(tc.line, 0x1F90)
		if inode != tc.inode || ok != tc.ok {
			t.Errorf("connectedTo(%q) = %q, %v; want %q, %v", tc.line, inode, ok, tc.inode, tc.ok)
		}
	}
}
