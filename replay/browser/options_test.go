package browser

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/skills"
)

// TestBrowserOptions starts a browser with a skill's window size and proxy,
// and checks that sites see a browser, not "HeadlessChrome": the default
// (the headless shell where one is installed) and Chromium itself.
func TestBrowserOptions(t *testing.T) {
	full, err := chromium.Find()
	if err != nil {
		t.Skip(err)
	}
	if _, ok := chromium.FindShell(); !ok {
		t.Log("LOUD SKIP of the default: no headless shell here (scripts/deps installs chromium-headless-shell); only Chromium itself is checked")
	}
	for _, exe := range []string{"", full} {
		t.Run(cmp.Or(filepath.Base(exe), "default"), func(t *testing.T) { checkBrowserOptions(t, exe) })
	}
}

func checkBrowserOptions(t *testing.T, exe string) {
	var mu sync.Mutex
	var agents, proxied []string
	// The proxy serves shop.example.test itself: a name only it knows.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Host != "shop.example.test" {
			// Chromium's own background requests: the browser's, not a page's.
			http.Error(w, "not here", http.StatusBadGateway)
			return
		}
		mu.Lock()
		proxied = append(proxied, r.URL.String())
		agents = append(agents, r.UserAgent())
		mu.Unlock()
		fmt.Fprint(w, `<!doctype html><title>Shop</title><p>through the proxy</p>`)
	}))
	defer proxy.Close()
	ex := launch(t, &skills.Browser{Executable: exe, Viewport: &skills.Viewport{Width: 1024, Height: 700}, Proxy: proxy.URL})
	open(t, ex, "http://shop.example.test/cart")
	mu.Lock()
	if len(proxied) == 0 || proxied[0] != "http://shop.example.test/cart" {
		t.Errorf("the proxy saw %v", proxied)
	}
	for _, ua := range agents {
		if strings.Contains(ua, "Headless") || !strings.Contains(ua, "Chrome/") {
			t.Errorf("the site saw user agent %q", ua)
		}
	}
	mu.Unlock()
	// The viewport is the page's size, not the window's (issue 35).
	checkViewport(t, ex, 1024, 700)
	if ua := eval[string](t, ex, "navigator.userAgent"); strings.Contains(ua, "Headless") {
		t.Errorf("navigator.userAgent = %q", ua)
	}
	// A tab of the same browser says the same.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tab, err := ex.Tab(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	open(t, tab, "http://shop.example.test/")
	if ua := eval[string](t, tab, "navigator.userAgent"); strings.Contains(ua, "Headless") {
		t.Errorf("another tab's navigator.userAgent = %q", ua)
	}
	checkViewport(t, tab, 1024, 700)
}

// checkViewport checks the page's inner size.
func checkViewport(t *testing.T, ex *Executor, width, height int) {
	t.Helper()
	if w, h := eval[int](t, ex, "window.innerWidth"), eval[int](t, ex, "window.innerHeight"); w != width || h != height {
		t.Errorf("the page is %dx%d; want the skill's viewport, %dx%d", w, h, width, height)
	}
}

func TestLaunchRefusals(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true, Skill: &skills.Browser{Executable: "/nonexistent/chrome"}})
	if err == nil || !strings.Contains(err.Error(), "no browser to start at /nonexistent/chrome") {
		t.Errorf("a missing executable: %v", err)
	}
	t.Setenv("CHROME_PATH", "/nonexistent/chromium")
	_, err = New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true})
	if err == nil || !strings.Contains(err.Error(), "no browser to start at /nonexistent/chromium") {
		t.Errorf("a missing CHROME_PATH: %v", err)
	}
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("!!! not root on Linux: the refusal to start as root with the sandbox on is not tested here")
	}
	_, err = New(ctx, Options{ProfileDir: t.TempDir()})
	if !errors.Is(err, ErrRootSandbox) || !strings.Contains(err.Error(), SandboxEnv+"=false") {
		t.Errorf("root with the sandbox on: %v", err)
	}
}

func TestSandboxOff(t *testing.T) {
	for v, want := range map[string]bool{"": false, "true": false, "false": true, "FALSE": true, "0": true, "off": true, "no": true, "maybe": false} {
		t.Setenv(SandboxEnv, v)
		if got := SandboxOff(); got != want {
			t.Errorf("%s=%q: SandboxOff() = %v; want %v", SandboxEnv, v, got, want)
		}
	}
}

// TestMaxOpen: with the host's bound at one browser, a second launch
// waits until the first browser has closed.
func TestMaxOpen(t *testing.T) {
	browser(t)
	t.Setenv(MaxOpenEnv, "1")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	first, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan error, 1)
	go func() {
		ex, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true})
		if err == nil {
			err = ex.Close()
		}
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("a second browser started while the only slot was held: %v", err)
	case <-time.After(500 * time.Millisecond):
		// Not a wait for the launch: a second that started would have
		// been caught here, one that waits is released below.
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatalf("the second launch after the first closed: %v", err)
	}
	t.Setenv(MaxOpenEnv, "many")
	if _, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true}); err == nil || !strings.Contains(err.Error(), MaxOpenEnv+`="many"`) {
		t.Errorf("a malformed bound: %v", err)
	}
}
