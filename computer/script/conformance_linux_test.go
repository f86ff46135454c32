package script

import (
	"errors"
	"image/png"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/ops"
)

// startForm opens a zenity form on d and returns its X window id as
// xdotool names it; the form's output (what OK filed) goes to the file out.
func startForm(t *testing.T, d *xvfb.Desktop, out string) string {
	t.Helper()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, id := d.Zenity(t, f, "--forms", "--title", "New customer", "--add-entry", "First Name", "--add-entry", "Email")
	return id
}

// formTarget is the form as the broker lists it.
func formTarget(t *testing.T, b *computer.Broker) api.Target {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ts, err := b.Targets(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range ts {
			if tg.Title == "New customer" {
				return tg
			}
		}
	}
	t.Fatal("the form is not listed")
	return api.Target{}
}

// conformance is one script of the suite and what it must give: a return
// value, or an error code (with the grant's code when the broker refused).
type conformance struct {
	name     string
	code     string
	readOnly bool
	want     string // the return value, when no error is wanted
	wantCode string
	before   func(t *testing.T) // done to the desktop before the script
}

// TestConformanceX11 runs the scripted runtime against a real X desktop:
// Xvfb, a GTK form on the accessibility bus, XTEST input, xclip. Each
// script is a rule of the scriptable-tool design or of the grants.
func TestConformanceX11(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	filed := filepath.Join(t.TempDir(), "filed")
	formID := startForm(t, d, filed)
	desk, err := computer.OpenDesktop(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	b := computer.NewBroker(desk, computer.Policy{Self: []int{os.Getpid()}}, nil, nil)
	ctx := t.Context()
	g, _, err := b.Create(ctx, computer.GrantRequest{TargetID: formTarget(t, b).ID, Capture: computer.CapturePixels, Issuer: computer.IssuerUser})
	if err != nil {
		t.Fatal(err)
	}
	plat := Open(d.Display, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { _ = plat.Close() })
	if plat.Screen == nil || plat.Input == nil || plat.Tree == nil {
		t.Fatalf("the X11 platform opened without its parts: %+v", plat)
	}
	r := New(b, g.ID, plat, t.TempDir())

	suite := []conformance{
		{name: "the form's fields appear on the accessibility bus",
			code: `w = desktop.window({title: "new customer"});
				return wait(() => w.find({role: "textbox"}).length, {timeout: 20000})`, want: "2"},
		{name: "windows() lists the form, bound, with its app",
			code: `const f = desktop.windows({title: "New customer"})[0]; return [f.app, f.bound, f.bounds.width > 0].join()`,
			want: "zenity,true,true"},
		{name: "a field found by its label is set and read back through AX",
			code: `first = w.find({role: "textbox", title: "First Name"})[0]; first.setValue("Ada"); return first.value()`, want: "Ada"},
		{name: "ax() shows the fields with refs",
			code: `const tree = w.ax(); return /textbox "Email".*\[ref=e\d+\]/.test(tree) && /push button|button "OK"/.test(tree)`, want: "true"},
		{name: "a read-only run throws on input and types nothing", readOnly: true,
			code: `w.screenshot(); w.type("nope")`, wantCode: PermissionDenied},
		{name: "a click needs a screenshot of the same target",
			code: `desktop.click(10, 10)`, wantCode: InvalidCoordinateFrame},
		{name: "a click at the Email field's centre, read from a screenshot, then typing, fills it",
			code: `const shot = w.screenshot();
				const email = w.find({role: "textbox", title: "Email"})[0];
				const b = email.bounds();
				w.click(b.x - w.bounds.x + (b.width >> 1), b.y - w.bounds.y + (b.height >> 1));
				w.type("ada@example.org");
				return wait(() => w.find({role: "textbox", title: "Email"})[0].value() === "ada@example.org", {timeout: 20000})`,
			want: "true"},
		{name: "the window moves between the screenshot and the click",
			code:     `w.screenshot(); moved = true`,
			wantCode: "",
			want:     "true"},
		{name: "... and the click is refused as a stale frame",
			before: func(t *testing.T) {
				if _, err := d.Xdotool(ctx, "windowmove", "--sync", formID, "300", "200"); err != nil {
					t.Fatal(err)
				}
			},
			code: `w.click(5, 5)`, wantCode: InvalidCoordinateFrame},
		{name: "refs two snapshots old are stale",
			code: `const old = w.find({role: "textbox"})[0].ref; w.ax(); w.ax(); w.ref(old)`, wantCode: StaleRef},
		{name: "the clipboard round-trips through xclip",
			code: `desktop.clipboard.write("reprise clip"); return wait(() => desktop.clipboard.read() === "reprise clip", {timeout: 5000})`, want: "true"},
		{name: "the OK button pressed through AX files the form",
			code: `w.find({role: "button", title: "OK"})[0].press(); return "pressed"`, want: "pressed"},
	}
	for _, c := range suite {
		if c.before != nil {
			c.before(t)
		}
		res, err := r.Run(ctx, c.code, Options{ReadOnly: c.readOnly, Timeout: 60 * time.Second})
		var e *Error
		switch {
		case c.wantCode == "" && err != nil:
			t.Fatalf("%s: %v", c.name, err)
		case c.wantCode == "" && res.Return != c.want:
			t.Fatalf("%s: returned %q; want %q", c.name, res.Return, c.want)
		case c.wantCode != "" && (!errors.As(err, &e) || e.Code != c.wantCode):
			t.Fatalf("%s: %v; want %s", c.name, err, c.wantCode)
		}
		t.Logf("ok: %s", c.name)
	}
	// zenity writes the filed line in pieces (each field, then its
	// separator): the line is whole once its newline is there.
	line := func() (string, bool) {
		b, _ := os.ReadFile(filed)
		return strings.TrimSpace(string(b)), strings.HasSuffix(string(b), "\n")
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, whole := line(); whole {
			break
		}
	}
	if got, _ := line(); got != "Ada|ada@example.org" {
		t.Fatalf("the form filed %q; want Ada|ada@example.org and nothing typed by the read-only run", got)
	}
}

// TestScreenshotsOnXvfbKeepOnlyTheGrantedWindow: a real grab of the
// desktop keeps the form's pixels and blanks the rest.
func TestScreenshotsOnXvfbKeepOnlyTheGrantedWindow(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	startForm(t, d, filepath.Join(t.TempDir(), "filed"))
	desk, err := computer.OpenDesktop(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	b := computer.NewBroker(desk, computer.Policy{}, nil, nil)
	form := formTarget(t, b)
	g, _, err := b.Create(t.Context(), computer.GrantRequest{TargetID: form.ID, Capture: computer.CapturePixels, Issuer: computer.IssuerUser})
	if err != nil {
		t.Fatal(err)
	}
	plat := Open(d.Display, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { _ = plat.Close() })
	r := New(b, g.ID, plat, t.TempDir())
	res, err := r.Run(t.Context(), `return [desktop.screenshot(), desktop.window("`+form.ID+`").bounds]`, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(res.Screenshots[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	bounds := g.Target.Bounds
	lit, outside := 0, 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 7 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 7 {
			r, gg, bb, _ := img.At(x, y).RGBA()
			if r|gg|bb == 0 {
				continue
			}
			if x >= bounds.Min.X && x < bounds.Max.X && y >= bounds.Min.Y && y < bounds.Max.Y {
				lit++
			} else {
				outside++
			}
		}
	}
	if lit == 0 || outside != 0 {
		t.Fatalf("the desktop shot has %d lit samples in the form and %d outside it; want some and none", lit, outside)
	}
}

// TestConformanceX11Refusals: the grant's refusals as a script meets them
// on a real desktop: a deny-listed window listed with its code and never
// bound, the budget spent, the idle expiry, and a password field that
// stops every capture.
func TestConformanceX11Refusals(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	startForm(t, d, filepath.Join(t.TempDir(), "filed"))
	d.Zenity(t, nil, "--entry", "--title", "Unlock Keyring", "--text", "Password")
	desk, err := computer.OpenDesktop(d.Display)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	b := computer.NewBroker(desk, computer.Policy{Self: []int{os.Getpid()}}, nil, now)
	form := formTarget(t, b)
	plat := Open(d.Display, slog.New(slog.DiscardHandler))
	t.Cleanup(func() { _ = plat.Close() })
	ctx := t.Context()
	grant := func(budget int) *Runtime {
		t.Helper()
		g, _, err := b.Create(ctx, computer.GrantRequest{TargetID: form.ID, Capture: computer.CapturePixels, Issuer: computer.IssuerUser, Budget: budget, IdleExpiry: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return New(b, g.ID, plat, t.TempDir())
	}
	expect := func(r *Runtime, code, wantCode, wantGrant string) {
		t.Helper()
		_, err := r.Run(ctx, code, Options{Timeout: 30 * time.Second})
		var e *Error
		if !errors.As(err, &e) || e.Code != wantCode || wantGrant != "" && e.GrantCode != wantGrant {
			t.Fatalf("%s: %v; want %s (%s)", code, err, wantCode, wantGrant)
		}
	}

	r := grant(2)
	res, err := r.Run(ctx, `return desktop.windows({title: "unlock"})[0].refused`, Options{})
	if err != nil || res.Return != ops.CodeComputerTargetDenyListed {
		t.Fatalf("the keyring prompt listed as %q (%v); want refused %s", res.Return, err, ops.CodeComputerTargetDenyListed)
	}
	expect(r, `desktop.window({title: "Unlock Keyring"}).screenshot()`, PermissionDenied, ops.CodeComputerTargetDenyListed)
	// Two actions of two, then the grant is spent.
	if _, err := r.Run(ctx, `w = desktop.window({title: "New customer"}); w.screenshot(); w.click(3, 3); w.click(4, 4)`, Options{}); err != nil {
		t.Fatalf("two clicks on a budget of two: %v", err)
	}
	expect(r, `w.click(5, 5)`, PermissionDenied, "")
	// Idle past the expiry: the grant is gone at the next look.
	r = grant(10)
	mu.Lock()
	clock = clock.Add(2 * time.Minute)
	mu.Unlock()
	expect(r, `desktop.windows()`, PermissionDenied, ops.CodeComputerGrantExpired)
	// A password field takes the focus: no capture anywhere until it closes.
	r = grant(10)
	d.Zenity(t, nil, "--password", "--title", "Sign in")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if secure, err := desk.SecureInput(ctx); err == nil && secure {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the password field never had the focus")
		}
	}
	expect(r, `desktop.window({title: "New customer"}).screenshot()`, PermissionDenied, ops.CodeComputerSecureInputRefused)
}
