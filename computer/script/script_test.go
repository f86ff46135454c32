package script

import (
	"context"
	"errors"
	"image"
	"image/png"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/ops"
)

func TestNoGrantNoRun(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	if err := f.b.Revoke(context.Background(), f.grant.ID); err != nil {
		t.Fatal(err)
	}
	_, err := f.r.Run(context.Background(), "desktop.windows()", Options{ReadOnly: true})
	var e *Error
	if !errors.As(err, &e) || e.Code != PermissionDenied || e.GrantCode != ops.CodeComputerNoGrant {
		t.Fatalf("a run without its grant: %v; want PermissionDenied (COMPUTER_NO_GRANT)", err)
	}
}

func TestReadOnlyRunsThrowOnInput(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	ro := Options{ReadOnly: true, Timeout: 10 * time.Second}
	// Reads go through.
	if _, err := f.r.Run(context.Background(), `
		const w = desktop.window({title: "form"});
		w.screenshot(); w.ax(); w.find({role: "textbox"});
		desktop.windows(); desktop.clipboard.read(); desktop.capabilities();`, ro); err != nil {
		t.Fatalf("reads in a read-only run: %v", err)
	}
	// The clipboard is read only when the granted window's application
	// put it there.
	f.clip.owner = 11 // Notes, not the granted Form
	if e := f.fails(t, `desktop.clipboard.read()`, ro); e.Code != PermissionDenied || !strings.Contains(e.Message, "another application") {
		t.Errorf("a read-only read of another application's copy: %v; want PermissionDenied", e)
	}
	f.clip.owner = 0
	if got := f.run(t, `desktop.clipboard.read()`); got != "copied" {
		t.Errorf("a writable run's read: %q", got)
	}
	f.clip.owner = 10
	for _, code := range []string{
		`desktop.window("0x1").click(10, 10)`,
		`desktop.type("hello")`,
		`desktop.press("ctrl+s")`,
		`desktop.window("0x1").raise()`,
		`desktop.window("0x1").find({title: "Name"})[0].setValue("x")`,
		`desktop.window("0x1").find({title: "Save"})[0].press()`,
		`desktop.clipboard.write("x")`,
	} {
		if e := f.fails(t, code, ro); e.Code != PermissionDenied || !strings.Contains(e.Message, "read-only") {
			t.Errorf("%s in a read-only run: %v; want PermissionDenied", code, e)
		}
	}
	if got := f.d.got(); len(got) != 0 {
		t.Errorf("a read-only run sent input: %q", got)
	}
}

func TestCoordinatesBelongToTheLatestScreenshotOfTheSameTarget(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	e := f.fails(t, `desktop.window("0x1").click(10, 10)`, Options{})
	if e.Code != InvalidCoordinateFrame {
		t.Fatalf("a click before any screenshot: %v; want InvalidCoordinateFrame", e)
	}
	f.run(t, `w = desktop.window("0x1"); shot = w.screenshot(); w.click(10, 20)`)
	if got := f.d.got(); !slices.Equal(got, []string{"click 110,120 1"}) {
		t.Fatalf("the click reached %q; want the window's (10, 20) on screen", got)
	}
	// Another target's frame is not this one's.
	if e := f.fails(t, `desktop.click(110, 120)`, Options{}); e.Code != InvalidCoordinateFrame {
		t.Errorf("a desktop click with only a window's screenshot: %v; want InvalidCoordinateFrame", e)
	}
	if e := f.fails(t, `w.click(300, 10)`, Options{}); e.Code != InvalidCoordinateFrame {
		t.Errorf("a point outside the screenshot: %v; want InvalidCoordinateFrame", e)
	}
	// The window moves between the screenshot and the click.
	f.d.set(func(ws []computer.Window) { ws[0].Bounds = ws[0].Bounds.Add(image.Pt(5, 0)) })
	e = f.fails(t, `w.click(10, 20)`, Options{})
	if e.Code != InvalidCoordinateFrame || e.GrantCode != ops.CodeComputerStaleRevision && e.GrantCode != ops.CodeComputerStaleBasis {
		t.Fatalf("a click after the window moved: %v; want InvalidCoordinateFrame from a stale basis", e)
	}
	f.run(t, `w.screenshot(); w.doubleClick(10, 20)`)
	if got := f.d.got(); !slices.Equal(got[1:], []string{"click 115,120 1", "click 115,120 1"}) {
		t.Fatalf("after a new screenshot the double click reached %q", got)
	}
}

func TestScreenshotsShowOnlyTheGrantedWindow(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	// Notes comes to the front, over the form's bottom-right corner.
	f.d.set(func(ws []computer.Window) { ws[0], ws[1] = ws[1], ws[0] })
	var shots []Shot
	res, err := f.r.Run(context.Background(), `desktop.screenshot(); desktop.window("0x1").screenshot()`, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	shots = res.Screenshots
	if len(shots) != 2 || shots[0].Target != "desktop" || shots[1].Target != "0x1" || shots[1].Width != 300 || shots[1].Height != 200 {
		t.Fatalf("shots %+v", shots)
	}
	read := func(p string) image.Image {
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		img, err := png.Decode(fh)
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v; want 0600", p, st.Mode().Perm())
		}
		return img
	}
	desk, win := read(shots[0].Path), read(shots[1].Path)
	for _, c := range []struct {
		img   image.Image
		p     image.Point
		white bool
	}{
		{desk, image.Pt(150, 150), true},  // the form
		{desk, image.Pt(50, 50), false},   // the desktop around it
		{desk, image.Pt(600, 400), false}, // Notes
		{desk, image.Pt(380, 280), false}, // the form under Notes
		{win, image.Pt(50, 50), true},
		{win, image.Pt(290, 190), false}, // the same corner, window-relative
	} {
		if got := c.img.At(c.p.X, c.p.Y) == white || c.img.At(c.p.X, c.p.Y) == image.White.C; got != c.white {
			r, g, b, _ := c.img.At(c.p.X, c.p.Y).RGBA()
			t.Errorf("pixel %v is %d,%d,%d; want white=%v", c.p, r>>8, g>>8, b>>8, c.white)
		}
	}
	// A click on the form where Notes covers it would land on Notes.
	if e := f.fails(t, `desktop.click(380, 280)`, Options{}); e.Code != BackgroundUnavailable {
		t.Fatalf("a click on a covered point: %v; want BackgroundUnavailable", e)
	}
	f.run(t, `desktop.click(380, 280, {delivery: "foreground"})`)
	if got := f.d.got(); !slices.Equal(got, []string{"click 380,280 1"}) {
		t.Fatalf("a foreground click raised the form and reached %q", got)
	}
	// Raising is input too: the broker authorized it, and the click.
	if g, _ := f.b.Describe(); g.Budget != computer.DefaultBudget-2 {
		t.Fatalf("budget left %d after a raise and a click; want %d", g.Budget, computer.DefaultBudget-2)
	}
}

func TestCaptureNeedsPixelsAndNoSecureInput(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{Capture: computer.CaptureA11y})
	if e := f.fails(t, `desktop.screenshot()`, Options{}); e.Code != PermissionDenied || e.GrantCode != ops.CodeComputerCaptureNotGranted {
		t.Fatalf("a screenshot under a11y-only: %v", e)
	}
	f.d.set(func([]computer.Window) {})
	f.d.mu.Lock()
	f.d.secure = true
	f.d.mu.Unlock()
	for _, code := range []string{`desktop.window("0x1").ax()`, `desktop.clipboard.read()`} {
		if e := f.fails(t, code, Options{ReadOnly: true}); e.Code != PermissionDenied || e.GrantCode != ops.CodeComputerSecureInputRefused {
			t.Errorf("%s while a password is typed: %v; want COMPUTER_SECURE_INPUT_REFUSED", code, e)
		}
	}
}

func TestAXRefsHaveGenerations(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	tree := f.run(t, `w = desktop.window("0x1"); w.ax()`)
	for _, want := range []string{`- textbox "Name" [ref=e2]`, `- textbox "Secret" (password) [ref=e3]`, `- button "Save" [ref=e4]`} {
		if !strings.Contains(tree, want) {
			t.Fatalf("ax() gave\n%s\nwant a line %q", tree, want)
		}
	}
	if strings.Contains(tree, "panel") {
		t.Errorf("an unnamed panel is layout, shown only with {all: true}:\n%s", tree)
	}
	f.run(t, `name = w.ref("e2"); name.setValue("Ada"); assert(name.value() === "Ada", "read back")`)
	f.run(t, `w.ax()`) // the previous generation stays valid
	f.run(t, `w.ref("e2").press()`)
	f.run(t, `w.ax()`)
	if e := f.fails(t, `w.ref("e2")`, Options{}); e.Code != StaleRef {
		t.Fatalf("a ref two snapshots old: %v; want StaleRef", e)
	}
	if e := f.fails(t, `name.value()`, Options{}); e.Code != StaleRef {
		t.Fatalf("an El two snapshots old: %v; want StaleRef", e)
	}
	if e := f.fails(t, `w.find({title: "Secret"})[0].value()`, Options{}); e.Code != PermissionDenied {
		t.Fatalf("a password field's value: %v; want PermissionDenied", e)
	}
	// Setting a password field is refused by its role, with the focus
	// elsewhere (issue 32).
	if e := f.fails(t, `w.find({title: "Secret"})[0].setValue("hunter2")`, Options{}); e.Code != PermissionDenied || e.GrantCode != ops.CodeComputerSecureInputRefused {
		t.Fatalf("setting a password field with the focus elsewhere: %v; want COMPUTER_SECURE_INPUT_REFUSED", e)
	}
	// The window moves: every ref of its snapshots goes stale.
	f.run(t, `save = w.find({role: "button"})[0]`)
	f.d.set(func(ws []computer.Window) { ws[0].Bounds = ws[0].Bounds.Add(image.Pt(0, 9)) })
	if e := f.fails(t, `save.press()`, Options{}); e.Code != StaleRef {
		t.Fatalf("pressing an element after its window moved: %v; want StaleRef", e)
	}
	if got := f.d.got(); !slices.Equal(got, []string{"fill Name", "ax-press Name"}) {
		t.Fatalf("the tree got %q", got)
	}
}

func TestKeysGoOnlyToTheFocusedGrantedWindow(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	f.d.set(func(ws []computer.Window) { ws[0].Focused, ws[1].Focused = false, true })
	if e := f.fails(t, `desktop.type("hello")`, Options{}); e.Code != BackgroundUnavailable {
		t.Fatalf("typing while another window has the focus: %v; want BackgroundUnavailable", e)
	}
	f.run(t, `desktop.type("hello", {delivery: "foreground"}); desktop.press(["ctrl+a", "Return"])`)
	if got := f.d.got(); !slices.Equal(got, []string{"type hello", "press 61", "press ff0d"}) {
		t.Fatalf("keys reached %q", got)
	}
	if e := f.fails(t, `desktop.press("ctrl+nosuchkey")`, Options{}); e.Code != InvalidKey {
		t.Fatalf("an unknown key: %v; want InvalidKey", e)
	}
}

func TestBudgetAndRebinding(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{Budget: 2})
	f.run(t, `w = desktop.window("0x1"); w.screenshot(); w.click(1, 1); w.click(2, 2)`)
	if e := f.fails(t, `w.click(3, 3)`, Options{}); e.Code != PermissionDenied {
		t.Fatalf("a third action on a budget of two: %v; want PermissionDenied", e)
	}
	// A window grant stays on its window.
	g := newFixture(t, computer.GrantRequest{Scope: computer.ScopeWindow})
	if e := g.fails(t, `desktop.window("0x2").screenshot()`, Options{}); e.Code != PermissionDenied || e.GrantCode != ops.CodeComputerOutOfScope {
		t.Fatalf("another window under a window grant: %v; want COMPUTER_OUT_OF_SCOPE", e)
	}
	// A desktop grant rebinds, and the old window's frame is stale.
	h := newFixture(t, computer.GrantRequest{})
	h.run(t, `a = desktop.window("0x1"); a.screenshot(); b = desktop.window("0x2"); b.screenshot()`)
	if e := h.fails(t, `a.click(5, 5)`, Options{}); e.Code != InvalidCoordinateFrame {
		t.Fatalf("a click in the window the grant left: %v; want InvalidCoordinateFrame", e)
	}
}

func TestRuntimePersistsAndBoundsRuns(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	f.run(t, `var count = 1; function next() { return ++count }`)
	if got := f.run(t, `next()`); got != "2" {
		t.Fatalf("a global of the last run: %q; want 2", got)
	}
	if got := f.run(t, `const ws = await Promise.resolve(desktop.windows()); return ws.map(w => w.title)`); got != `["Form","Notes"]` {
		t.Fatalf("top-level await and return: %q", got)
	}
	res, err := f.r.Run(context.Background(), `print("a", 1); console.log({b: 2}); "done"`, Options{})
	if err != nil || !slices.Equal(res.Output, []string{"a 1", `{"b":2}`}) || res.Return != "done" {
		t.Fatalf("output %q return %q, %v", res.Output, res.Return, err)
	}
	if e := f.fails(t, `while (true) {}`, Options{Timeout: time.Second}); e.Code != Timeout {
		t.Fatalf("an endless loop: %v; want Timeout", e)
	}
	if e := f.fails(t, `wait(() => false, {timeout: 50})`, Options{}); e.Code != Timeout {
		t.Fatalf("a wait that never holds: %v; want Timeout", e)
	}
	if got := f.run(t, `wait(() => desktop.windows().length)`); got != "2" {
		t.Fatalf("wait returns the predicate's value: %q", got)
	}
	_, err = f.r.Run(context.Background(), `assert(1 === 2, "one is not two")`, Options{})
	if err == nil || !strings.Contains(err.Error(), "one is not two") {
		t.Fatalf("a failed assert: %v", err)
	}
	if got := f.run(t, `try { desktop.window("nothing") } catch (e) { e.code }`); got != WindowNotFound {
		t.Fatalf("a script catches by code: %q", got)
	}
}

func TestStopAbortsTheRun(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	f.d.mu.Lock()
	before := f.d.listed // the grant's own listing
	f.d.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := f.r.Run(context.Background(), `wait(() => desktop.windows().length > 5, {timeout: 60000, interval: 20})`, Options{Timeout: 90 * time.Second})
		done <- err
	}()
	for {
		f.d.mu.Lock()
		n := f.d.listed
		f.d.mu.Unlock()
		if n > before {
			break // the run is waiting
		}
		time.Sleep(5 * time.Millisecond)
	}
	f.b.Stop(context.Background())
	err := <-done
	var e *Error
	if !errors.As(err, &e) || e.Code != Closed {
		t.Fatalf("a run when the person pressed Stop: %v; want Closed", err)
	}
}

func TestClipboardAndCapabilities(t *testing.T) {
	f := newFixture(t, computer.GrantRequest{})
	if got := f.run(t, `desktop.clipboard.write("new"); desktop.clipboard.read()`); got != "new" {
		t.Fatalf("clipboard: %q", got)
	}
	caps := f.run(t, `desktop.capabilities()`)
	for _, want := range []string{`"capture":true`, `"deliveryModes":["foreground"]`, `"scope":"desktop"`, `"pointer":true`} {
		if !strings.Contains(caps, want) {
			t.Errorf("capabilities %s; want %s", caps, want)
		}
	}
	if got := f.run(t, `desktop.displays()[0].bounds.width`); got != "800" {
		t.Errorf("displays: %s", got)
	}
	if got := f.run(t, `desktop.focusedWindow().title`); got != "Form" {
		t.Errorf("focusedWindow: %s", got)
	}
	if got := f.run(t, `desktop.focusedElement().title`); got != "Name" {
		t.Errorf("focusedElement: %s", got)
	}
	if got := f.run(t, `desktop.elementAt(130, 210).title`); got != "Save" {
		t.Errorf("elementAt: %s", got)
	}
	if e := f.fails(t, `desktop.windows({title: ""}).length; desktop.window({})`, Options{}); e.Code != InvalidTarget || !strings.Contains(e.Message, "0x2") {
		t.Errorf("an ambiguous window: %v; want InvalidTarget naming the candidates", e)
	}
	if e := f.fails(t, `syntax error here (`, Options{}); e.Code != Internal || !strings.Contains(e.Message, "syntax") {
		t.Errorf("a syntax error: %v", e)
	}
}
