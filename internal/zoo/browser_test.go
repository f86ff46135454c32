package zoo

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// One Chromium serves the whole test binary; each test opens its own tab.
var shared struct {
	once    sync.Once
	missing error // no Chromium on this machine
	err     error
	dir     string
	br      *chromium.Browser
	root    context.Context
	stop    []func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	for i := len(shared.stop) - 1; i >= 0; i-- {
		shared.stop[i]()
	}
	os.Exit(code)
}

// tab opens a new tab in the shared headless Chromium, starting it on first
// use; without Chromium the test is skipped, loudly.
func tab(t *testing.T) context.Context {
	t.Helper()
	shared.once.Do(startBrowser)
	if shared.missing != nil {
		t.Skipf("SKIPPED, NOT TESTED: this test drives a real browser and %v", shared.missing)
	}
	if shared.err != nil {
		t.Fatalf("start Chromium: %v", shared.err)
	}
	ctx, cancel := chromedp.NewContext(shared.root)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

func startBrowser() {
	if _, err := chromium.Find(); err != nil {
		shared.missing = err
		return
	}
	dir, err := os.MkdirTemp("", "zoo-chromium-")
	if err != nil {
		shared.err = err
		return
	}
	shared.stop = append(shared.stop, func() { _ = os.RemoveAll(dir) })
	br, err := chromium.Launch(context.Background(), chromium.Options{ProfileDir: dir})
	if err != nil {
		shared.err = err
		return
	}
	shared.stop = append(shared.stop, br.Close)
	actx, acancel := remote.NewAllocator(context.Background(), br.DevTools)
	root, rcancel := chromedp.NewContext(actx)
	shared.stop = append(shared.stop, acancel, rcancel)
	if err := chromedp.Do(root); err != nil {
		shared.err = fmt.Errorf("attach to %s: %w", br.DevTools, err)
		return
	}
	shared.root = root
}

// tabsAtOnce is how many tabs the browser tests drive at a time. A tab
// mostly waits (on the page, on the save-in-place server's delay), so more
// tabs than cores shortens the run without loading the machine much.
const tabsAtOnce = 4

// wide runs fn as one subtest per name, tabsAtOnce at a time, whatever
// -parallel says.
func wide(t *testing.T, names []string, fn func(t *testing.T, i int)) {
	sem := make(chan struct{}, tabsAtOnce)
	var wg sync.WaitGroup
	for i, name := range names {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			t.Run(name, func(t *testing.T) { fn(t, i) })
		})
	}
	wg.Wait()
}
