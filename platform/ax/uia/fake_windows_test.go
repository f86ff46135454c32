package uia

import (
	"context"
	"errors"
	"image"
	"os"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/events"
)

// fakeEnv names the fake UIA server (testdata/fakeuia) the Linux-side test
// builds with mingw; TestWineFake skips without it.
const fakeEnv = "REPRISE_UIA_FAKE_DLL"

// TestWineFake runs the client against fakeuia.dll, a UIA server in C, so
// that every COM call the package makes runs for real under Wine 8, which
// has no UIA client: the vtable calls, POINT by value, BSTRs, [out]
// pointers, reference counts, the path and ordinal rules, Find, the
// patterns and the password refusals.
func TestWineFake(t *testing.T) {
	path := os.Getenv(fakeEnv)
	if path == "" {
		t.Skipf("SKIPPED: %s is not set; the Linux-side test TestUIAUnderWine builds testdata/fakeuia and sets it", fakeEnv)
	}
	dll, err := windows.LoadDLL(path)
	if err != nil {
		t.Fatal(err)
	}
	defer dll.Release()
	proc := func(name string) func(args ...uintptr) int {
		p := dll.MustFindProc(name)
		return func(args ...uintptr) int { r, _, _ := p.Call(args...); return int(int32(r)) }
	}
	refs, invokes, toggles, focuses, timeout := proc("FakeUIA_Refs"), proc("FakeUIA_Invokes"),
		proc("FakeUIA_Toggles"), proc("FakeUIA_Focuses"), proc("FakeUIA_Timeout")
	create := dll.MustFindProc("FakeUIA_Create")
	c, err := start(Options{}, func() (*object, error) {
		var auto *object
		hr, _, _ := create.Call(uintptr(unsafe.Pointer(&auto)))
		return auto, check("FakeUIA_Create", HRESULT(uint32(hr)))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if conn, trans := timeout(0), timeout(1); conn != 2000 || trans != 5000 {
		t.Errorf("timeouts set to %d ms, %d ms; want 2000, 5000", conn, trans)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	for _, tc := range []struct {
		x, y              int
		path, role, label string
		id                string
	}{
		{300, 140, "Window[Sign in]/Edit[User name]", "textbox", "User name", "1001"},
		{300, 170, "Window[Sign in]/PasswordEdit[Password]", "textbox", "Password", "1002"},
		{150, 200, "Window[Sign in]/CheckBox[Remember me]", "checkbox", "Remember me", "1003"},
		{150, 360, "Window[Sign in]/Button[OK]#1", "button", "OK", "1"},
		{250, 360, "Window[Sign in]/Button[OK]#2", "button", "OK", ""},
		{300, 300, "Window[Sign in]/Pane/Edit", "textbox", "Notes", "1005"}, // labelled by
		{150, 120, "Window[Sign in]", "dialog", "Sign in", ""},              // a Win32 dialog box
		{650, 260, "Window[Other]/Button[OK]", "button", "OK", ""},          // one OK in its window
	} {
		e, err := c.At(ctx, tc.x, tc.y)
		if err != nil || e == nil {
			t.Errorf("At(%d, %d) = %v, %v", tc.x, tc.y, e, err)
			continue
		}
		var id string
		if len(e.Selectors) == 1 && e.Selectors[0].Strategy == events.StrategyID {
			id = e.Selectors[0].Value
		}
		if *e.AXPath != tc.path || e.Role != tc.role || e.Label != tc.label || id != tc.id || len(e.Selectors) > 1 {
			t.Errorf("At(%d, %d) = path %q role %q label %q selectors %v; want %q %q %q id %q",
				tc.x, tc.y, *e.AXPath, e.Role, e.Label, e.Selectors, tc.path, tc.role, tc.label, tc.id)
		}
		if IsPassword(e) != (tc.label == "Password") {
			t.Errorf("IsPassword(At(%d, %d)) = %v", tc.x, tc.y, IsPassword(e))
		}
	}
	if e, err := c.At(ctx, 1000, 700); err != nil || e != nil { // the desktop itself
		t.Errorf("At on the desktop = %v, %v; want nothing", e, err)
	}

	oks, err := c.Find(ctx, "Sign in", "button", "OK")
	if err != nil || len(oks) != 2 || oks[0].AXPath != "Window[Sign in]/Button[OK]#1" || oks[1].AXPath != "Window[Sign in]/Button[OK]#2" {
		t.Fatalf("Find(buttons OK) = %+v, %v; want #1 and #2", oks, err)
	}
	if oks[0].Bounds != image.Rect(110, 350, 200, 380) || oks[0].PID != os.Getpid() {
		t.Errorf("Find(buttons OK)[0] bounds %v pid %d; want (110,350)-(200,380), %d", oks[0].Bounds, oks[0].PID, os.Getpid())
	}
	if err := c.Act(ctx, oks[1], events.ActionClick, ""); err != nil || invokes() != 1 {
		t.Errorf("Act(click OK #2) = %v, %d invokes; want one", err, invokes())
	}
	c.Release(oks...)
	c.Release(oks...) // twice does nothing
	if err := c.Act(ctx, oks[0], events.ActionClick, ""); !errors.Is(err, ErrReleased) {
		t.Errorf("Act on a released element = %v; want ErrReleased", err)
	}

	find1 := func(role, label string) Element {
		t.Helper()
		els, err := c.Find(ctx, "Sign in", role, label)
		if err != nil || len(els) != 1 {
			t.Fatalf("Find(%q, %q) = %+v, %v; want one", role, label, els, err)
		}
		return els[0]
	}
	user := find1("textbox", "User name")
	if err := c.Act(ctx, user, events.ActionFill, "ada lovelace"); err != nil {
		t.Fatalf("Act(fill) = %v", err)
	}
	if v, err := c.Value(ctx, user); err != nil || v != "ada lovelace" {
		t.Errorf("Value() = %q, %v; want the text filled", v, err)
	}
	if err := c.Act(ctx, user, events.ActionClick, ""); err != nil || focuses() != 1 {
		t.Errorf("Act(click a field) = %v, %d focuses; want it focused", err, focuses())
	}
	pw := find1("textbox", "Password")
	if !pw.IsPassword() {
		t.Errorf("the password field's path %q", pw.AXPath)
	}
	if err := c.Act(ctx, pw, events.ActionFill, "secret"); !errors.Is(err, ErrPassword) {
		t.Errorf("Act(fill a password) = %v; want ErrPassword", err)
	}
	if _, err := c.Value(ctx, pw); !errors.Is(err, ErrPassword) {
		t.Errorf("Value(a password) = %v; want ErrPassword", err)
	}
	box := find1("checkbox", "")
	if err := c.Act(ctx, box, events.ActionClick, ""); err != nil || toggles() != 1 {
		t.Errorf("Act(click checkbox) = %v, %d toggles", err, toggles())
	}
	if v, err := c.Value(ctx, box); err != nil || v != "checked" {
		t.Errorf("Value(checkbox) = %q, %v; want checked", v, err)
	}
	if notes := find1("textbox", "Notes"); notes.AXPath != "Window[Sign in]/Pane/Edit" {
		t.Errorf("Find(Notes) path %q", notes.AXPath)
	}
	if all, err := c.Find(ctx, "Sign in", "", ""); err != nil || len(all) != 10 {
		t.Errorf("Find(everything) = %d elements, %v; want the dialog and its 9 descendants", len(all), err)
	}
	if _, err := c.Find(ctx, "No such window", "button", ""); !errors.Is(err, ErrNoWindow) {
		t.Errorf("Find(no window) = %v; want ErrNoWindow", err)
	}

	// List: one cached read of the dialog; the password field is listed
	// and its value never asked for; LabeledBy is an index.
	nodes, err := c.List(ctx, "Sign", 100)
	if err != nil || len(nodes) != 10 {
		t.Fatalf("List(Sign) = %d nodes, %v; want the dialog and its 9 descendants", len(nodes), err)
	}
	for i, n := range nodes {
		switch n.AXPath {
		case "Window[Sign in]/PasswordEdit[Password]":
			if !n.Password || n.Value != "" {
				t.Errorf("List: password field %+v; want marked, no value", n)
			}
		case "Window[Sign in]/Edit[User name]":
			if n.Value != "ada lovelace" || n.ID != "1001" || n.Parent != 0 {
				t.Errorf("List: user field %+v; want its value, id 1001, under the dialog", n)
			}
		case "Window[Sign in]/Pane/Edit":
			if l := n.LabeledBy; l < 0 || nodes[l].Label != "Notes" || n.Label != "Notes" || nodes[n.Parent].AXPath != "Window[Sign in]/Pane" {
				t.Errorf("List: notes field %d %+v; want labelled by the Notes text, in the pane", i, n)
			}
		}
	}
	if n := proc("FakeUIA_SecretReads")(); n != 0 {
		t.Errorf("List asked for a password field's value %d times", n)
	}
	if err := c.Act(ctx, nodes[4].Element, events.ActionClick, ""); err != nil {
		t.Errorf("Act on a listed element = %v", err)
	}
	if again, err := c.List(ctx, "No such window", 100); err != nil || again != nil {
		t.Errorf("List(no window) = %v, %v; want nothing", again, err)
	}
	if err := c.Act(ctx, nodes[4].Element, events.ActionClick, ""); !errors.Is(err, ErrReleased) {
		t.Errorf("Act on an element of the listing before last = %v; want ErrReleased", err)
	}

	// A slow application: Find gives up at the caller's deadline, and
	// what it had found is released, not leaked.
	proc("FakeUIA_Delay")(40)
	short, stop := context.WithTimeout(ctx, 200*time.Millisecond)
	began := time.Now()
	_, err = c.Find(short, "Sign in", "", "")
	stop()
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(began) > time.Second {
		t.Errorf("Find in a slow app = %v after %v; want the deadline, soon", err, time.Since(began))
	}
	proc("FakeUIA_Delay")(0)
	if _, err := c.At(ctx, 300, 140); err != nil { // the COM thread is free again
		t.Errorf("At after a slow Find = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if n := refs(); n != 0 {
		t.Errorf("%d references still held after Close; want 0", n)
	}
}
