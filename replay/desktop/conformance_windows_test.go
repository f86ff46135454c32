package desktop

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/msaa"
	"github.com/reprise-dev/reprise/platform/ax/uia"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/selector/selectortest"
)

// Environment the Linux-side test (conformance_wine_linux_test.go) sets:
// the cross-built form (internal/wine/selform) and, under Wine, the fake
// UIA server standing in for UI Automation.
const (
	formEnv    = "REPRISE_SELECTOR_FORM"
	uiaFakeEnv = "REPRISE_UIA_FAKE_DLL"
	benchSize  = 400
	benchTitle = "Selector bench"
)

// lister resolves selectors through an ax.Lister, as the executor does.
type lister struct{ l ax.Lister }

func (r lister) Resolve(ctx context.Context, s selector.Selector) (selector.Tree, int, error) {
	_, tree, i, err := Resolve(ctx, r.l, selectortest.Title, s)
	return tree, i, err
}

var procFindWindow = windows.NewLazySystemDLL("user32.dll").NewProc("FindWindowW")

// findWindow is the top-level window titled title, or 0.
func findWindow(title string) windows.HWND {
	p, _ := windows.UTF16PtrFromString(title)
	h, _, _ := procFindWindow.Call(0, uintptr(unsafe.Pointer(p)))
	return windows.HWND(h)
}

// startForm starts the selector form (with the bench window) and returns
// once its window exists, found by polling FindWindow until a deadline.
func startForm(t *testing.T) windows.HWND {
	t.Helper()
	wine.InDesktop(t)
	exe := os.Getenv(formEnv)
	if exe == "" {
		t.Skipf("SKIPPED: %s is not set; the Linux-side TestSelectorsUnderWine builds internal/wine/selform and sets it", formEnv)
	}
	cmd := exec.Command(exe, "-bench", strconv.Itoa(benchSize))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if findWindow(benchTitle) != 0 { // the bench window opens last
			return findWindow(selectortest.Title)
		}
	}
	t.Fatal("the selector form opened no window in 30 s")
	return 0
}

// dump logs the form as l lists it, for a failure.
func dump(t *testing.T, l ax.Lister) {
	t.Helper()
	nodes, err := l.List(context.Background(), selectortest.Title, maxNodes)
	for i, n := range nodes {
		t.Logf("%d: %s %q id %q value %q label %d parent %d at %v path %s", i, n.Role, n.Name, n.ID, n.Value, n.Label, n.Parent, n.Bounds, n.Path)
	}
	t.Logf("%d nodes, %v", len(nodes), err)
}

// measure logs what listing the bench window's 400 buttons costs.
func measure(t *testing.T, l ax.Lister) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	nodes, err := l.List(ctx, benchTitle, maxNodes)
	if err != nil || len(nodes) < benchSize {
		t.Fatalf("List(bench) = %d nodes, %v; want the window and its %d buttons", len(nodes), err, benchSize)
	}
	t.Logf("listing %d elements took %v", len(nodes), time.Since(start).Round(time.Millisecond))
}

// TestSelectorsMSAA runs the selector suite on the Win32 form through
// MSAA: real oleacc under Wine.
func TestSelectorsMSAA(t *testing.T) {
	startForm(t)
	e, err := msaa.New(msaa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// A child window's control id is at hand in the walk: MSAA gives ids.
	selectortest.Run(t, lister{e}, true)
	if t.Failed() {
		dump(t, e)
	}
	measure(t, e)
}

// TestSelectorsUIA runs the selector suite on the Win32 form through UI
// Automation: Windows' own where it exists; under Wine 8, which has none,
// the fake server (platform/ax/uia/testdata/fakeuia), which serves the
// form's real windows as UIA's Win32 proxies would.
func TestSelectorsUIA(t *testing.T) {
	startForm(t)
	var c *uia.Client
	var err error
	if dll := os.Getenv(uiaFakeEnv); dll != "" {
		d, err := windows.LoadDLL(dll)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Release()
		proxy := d.MustFindProc("FakeUIA_Proxy")
		for _, title := range []string{selectortest.Title, benchTitle} {
			if hr, _, _ := proxy.Call(uintptr(findWindow(title))); hr != 0 {
				t.Fatalf("FakeUIA_Proxy(%q) = %#x", title, hr)
			}
		}
		t.Logf("UI Automation through the fake server %s, serving the form's windows", dll)
		c, err = uia.New(uia.Options{ServerDLL: dll})
		if err != nil {
			t.Fatal(err)
		}
	} else if c, err = uia.New(uia.Options{}); err != nil {
		t.Fatalf("New() = %v; under Wine, set %s (the Linux-side test does)", err, uiaFakeEnv)
	}
	defer c.Close()
	selectortest.Run(t, lister{ax.UIA{Client: c}}, true)
	if t.Failed() {
		dump(t, ax.UIA{Client: c})
	}
	measure(t, ax.UIA{Client: c})
}
