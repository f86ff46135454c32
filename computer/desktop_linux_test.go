package computer

import (
	"image"
	"os"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/reprise-dev/reprise/internal/xvfb"
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

	var ts []Target
	waitFor(t, "three windows listed", func() bool {
		ts, err = b.Targets(ctx)
		return err == nil && len(ts) >= 3
	})
	byTitle := map[string]Target{}
	for _, tg := range ts {
		byTitle[tg.Title] = tg
	}
	for title, want := range map[string]string{"Notes": "", "Unlock Keyring": CodeDenyListed, "reprise test window": CodeSelfTarget} {
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
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "click", Point: &image.Point{X: 5, Y: 5}, Basis: &basis}); code(err) != CodeStaleBasis && code(err) != CodeStaleRevision {
		t.Errorf("a click on the basis from before the move: %v; want it refused as stale", err)
	}
	basis, _, _ = b.Measure(ctx, g.ID, true)
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "click", Point: &image.Point{X: basis.Bounds.Dx(), Y: 5}, Basis: &basis}); code(err) != CodeOutOfBounds {
		t.Errorf("a click right of the window: %v; want %s", err, CodeOutOfBounds)
	}

	// A password field takes the focus: no capture and no input anywhere.
	pw, _ := d.Zenity(t, nil, "--password", "--title", "Sign in")
	waitFor(t, "the password field seen as focused", func() bool {
		secure, err := desk.SecureInput(ctx)
		return err == nil && secure
	})
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "type", Point: &image.Point{X: 5, Y: 5}, Basis: &basis, TextLen: 4}); code(err) != CodeSecureInput {
		t.Errorf("input while a password is typed: %v; want %s", err, CodeSecureInput)
	}
	if _, _, err := b.Measure(ctx, g.ID, true); code(err) != CodeSecureInput {
		t.Errorf("a screenshot while a password is typed: %v; want %s", err, CodeSecureInput)
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
		return code(err) == CodeRevoked || code(err) == CodeNoGrant
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
