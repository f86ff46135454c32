package uia

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// wineVersion is Wine's version when the test runs under Wine (ntdll
// exports wine_get_version), else "".
func wineVersion() string {
	p := windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version")
	if p.Find() != nil {
		return ""
	}
	r, _, _ := p.Call()                                           // a const char * in Wine's ntdll
	return windows.BytePtrToString(*(**byte)(unsafe.Pointer(&r))) // read as the pointer it is
}

// newOrSkip makes a client, or skips the test under Wine when UI Automation
// is missing there (Wine 8: CoCreateInstance(CUIAutomation) gives
// REGDB_E_CLASSNOTREG, uiautomationcore's DllGetClassObject being a stub).
// On Windows a failure fails the test.
func newOrSkip(t *testing.T) *Client {
	t.Helper()
	c, err := New(Options{})
	if err == nil {
		return c
	}
	if v := wineVersion(); v != "" && errors.Is(err, ErrUnavailable) {
		t.Skipf("SKIPPED: Wine %s has no UI Automation client: %v", v, err)
	}
	t.Fatalf("New() = %v", err)
	return nil
}

// TestWineNew makes a client and asks it about a point on the screen;
// it drives nothing, so it runs on any Windows desktop.
func TestWineNew(t *testing.T) {
	c := newOrSkip(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.do(ctx, func(context.Context) (any, error) {
		t.Logf("desktop element %v, control view walker %v (%v), our integrity %v (%v)",
			c.root != nil, c.walker != nil, c.walkErr, c.ours, c.oursErr)
		return nil, c.walkErr
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.At(ctx, 5, 5)
	if err != nil {
		t.Fatalf("At(5, 5) = %v", err)
	}
	if e != nil {
		t.Logf("At(5, 5): path %q role %q label %q selectors %v", *e.AXPath, e.Role, e.Label, e.Selectors)
	}
	gone, stop := context.WithCancel(ctx)
	stop()
	if _, err := c.At(gone, 5, 5); !errors.Is(err, context.Canceled) {
		t.Errorf("At with a cancelled context = %v; want context.Canceled", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close() = %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close() = %v", err)
	}
	if _, err := c.At(ctx, 5, 5); !errors.Is(err, ErrClosed) {
		t.Errorf("At after Close = %v; want ErrClosed", err)
	}
}

// TestWineDesktopNotepad finds notepad's text area, fills it through the
// Value pattern, reads it back, and describes the point at its centre.
func TestWineDesktopNotepad(t *testing.T) {
	wine.InDesktop(t)
	c := newOrSkip(t)
	defer c.Close()
	np := exec.Command("notepad.exe")
	if err := np.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = np.Process.Kill(); _ = np.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const title = "Untitled - Notepad"
	var el Element
	for {
		var els []Element
		var err error
		for _, role := range []string{"textbox", "document"} { // Windows 11's notepad is a Document
			if els, err = c.Find(ctx, title, role, ""); len(els) > 0 {
				break
			}
		}
		if len(els) == 1 {
			el = els[0]
			break
		}
		c.Release(els...)
		if ctx.Err() != nil {
			t.Fatalf("notepad's text area not found once in %q: %d found, %v", title, len(els), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("found %+v", el)
	if !strings.HasPrefix(el.AXPath, "Window["+title+"]/") || el.IsPassword() {
		t.Errorf("path %q; want it under the notepad window, and no password field", el.AXPath)
	}
	if err := c.Act(ctx, el, "fill", "hello from uia"); err != nil {
		t.Fatalf("Act(fill) = %v", err)
	}
	if got, err := c.Value(ctx, el); err != nil || got != "hello from uia" {
		t.Errorf("Value() = %q, %v; want the text filled", got, err)
	}
	mid := el.Bounds.Min.Add(el.Bounds.Max).Div(2)
	e, err := c.At(ctx, mid.X, mid.Y)
	if err != nil || e == nil {
		t.Fatalf("At(%v) = %v, %v", mid, e, err)
	}
	if *e.AXPath != el.AXPath || e.Role != el.Role {
		t.Errorf("At(%v) = path %q role %q; Find said %q %q", mid, *e.AXPath, e.Role, el.AXPath, el.Role)
	}
	if last := axpath.LastRole(el.AXPath); last != "Edit" && last != "Document" {
		t.Errorf("last segment %q; want Edit or Document", last)
	}
	c.Release(el)
	if err := c.Act(ctx, el, "fill", "x"); !errors.Is(err, ErrReleased) {
		t.Errorf("Act after Release = %v; want ErrReleased", err)
	}
}
