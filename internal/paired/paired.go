// Package paired opens Chromium with the reprise extension loaded and paired
// with a running daemon, as a person does with `reprise extension pair`:
// for the demo and for tests that play a person in a real browser.
package paired

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/extension"
	"github.com/reprise-dev/reprise/internal/chromium"
)

// pairTimeout bounds the pairing page's work: store the link's credentials
// and say hello to the daemon.
const pairTimeout = 10 * time.Second

// Browser is a Chromium with the extension, paired with one daemon.
type Browser struct {
	// Ctx is a chromedp context on the browser's first tab.
	Ctx   context.Context
	close func()
}

// Launch writes the extension under dir, starts Chromium with it on a
// fresh profile under dir, and pairs it with the daemon serving home.
func Launch(ctx context.Context, home, dir string, show bool) (*Browser, error) {
	ext, err := extension.WriteTo(filepath.Join(dir, "extension"))
	if err != nil {
		return nil, err
	}
	br, err := chromium.Launch(ctx, chromium.Options{Extension: ext, ProfileDir: filepath.Join(dir, "profile"), Show: show})
	if err != nil {
		return nil, err
	}
	actx, acancel := remote.NewAllocator(ctx, br.DevTools)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &Browser{Ctx: bctx, close: func() { bcancel(); acancel(); br.Close() }}
	if err := b.pair(home); err != nil {
		b.Close()
		return nil, fmt.Errorf("pair the extension: %w", err)
	}
	return b, nil
}

// pair opens the link `reprise extension pair` prints and waits until the
// extension says it stored the daemon's address and credentials.
func (b *Browser) pair(home string) error {
	c, err := client.Dial(home, nats.NoReconnect())
	if err != nil {
		return err
	}
	defer c.Close()
	p, err := c.Pairing(b.Ctx)
	if err != nil {
		return err
	}
	if err := chromedp.Do(b.Ctx, chromedp.Navigate(extension.PairingURL(p.URL, p.User, p.Password)), chromedp.WaitVisible("#status")); err != nil {
		return err
	}
	paired, err := chromedp.Run(b.Ctx, chromedp.Poll[string](`document.getElementById("status").dataset.paired`, chromedp.WithPollingTimeout(pairTimeout)))
	if err != nil {
		return err
	}
	if paired != "true" {
		return errors.New("the extension did not pair")
	}
	// The extension says hello on its own schedule; until it has, the
	// browser channel is not there to record with.
	for deadline := time.Now().Add(pairTimeout); ; time.Sleep(50 * time.Millisecond) {
		st, err := c.Status(b.Ctx)
		if err == nil && st.BrowserConnected {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the paired extension did not say hello to the daemon in %s", pairTimeout)
		}
	}
}

// Close closes the browser. It is safe to call twice.
func (b *Browser) Close() {
	if b.close != nil {
		b.close()
		b.close = nil
	}
}

// WorkerState asks the extension's service worker, in the browser ctx
// drives, what it holds (repriseState in extension/sw.js: counts and
// flags, never a step).
func WorkerState(ctx context.Context) (map[string]any, error) {
	targets, err := chromedp.Targets(ctx)
	if err != nil {
		return nil, err
	}
	for _, tg := range targets {
		if tg.Type != "service_worker" || !strings.HasPrefix(tg.URL, "chrome-extension://") {
			continue
		}
		// Detached, not closed, after: closing the worker would lose what
		// it holds.
		wctx, cancel := chromedp.NewContext(ctx, chromedp.WithTargetID(tg.TargetID), chromedp.WithDetachOnCancel())
		defer cancel()
		tctx, stop := context.WithTimeout(wctx, 5*time.Second)
		defer stop()
		st, err := chromedp.Run(tctx, chromedp.Evaluate[map[string]any]("repriseState()"))
		if err != nil {
			return nil, fmt.Errorf("the worker does not answer: %w", err)
		}
		return st, nil
	}
	return nil, errors.New("no service worker running")
}
