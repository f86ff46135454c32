package review_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// TestReviewInChromium is the person's review for real: headless Chromium
// opens URL(), reads the page, ticks boxes with real clicks, reaches the
// apply button with the Tab key and presses Enter. Screenshots of the page
// before and after go to t.ArtifactDir() (kept with go test -artifacts
// -outputdir DIR).
func TestReviewInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	f := newFake(t)
	s := start(t, f)
	bctx := launch(ctx, t)
	dir := t.ArtifactDir()
	t.Logf("screenshots in %s", dir)

	err := chromedp.Do(bctx, chromedp.Navigate(s.URL()), chromedp.WaitVisible("#coverage"))
	if err != nil {
		t.Fatalf("open URL(): %v", err)
	}
	if loc := run(t, bctx, chromedp.Location()); loc != origin(s)+"/review" {
		t.Errorf("location after the exchange = %q; want %q, without the token", loc, origin(s)+"/review")
	}
	const wantCoverage = "6 steps: 3 resolved in the page (DOM), 2 by accessibility, 1 with no element (kind: none)."
	if got := run(t, bctx, chromedp.Text("#coverage")); got != wantCoverage {
		t.Errorf("coverage = %q; want %q", got, wantCoverage)
	}
	for _, sel := range []string{"#step-4 .value", "#step-6 .value"} {
		if got := run(t, bctx, chromedp.Text(sel)); !strings.Contains(got, "••••") {
			t.Errorf("%s = %q; want the mask", sel, got)
		}
	}
	if got := run(t, bctx, chromedp.Text("#step-5 .value")); got != scriptValue {
		t.Errorf("step 5 value = %q; want %q shown as text", got, scriptValue)
	}
	html := run(t, bctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	for _, never := range []string{rawRedacted, rawSecret} {
		if strings.Contains(html, never) {
			t.Errorf("the page in the browser contains %q", never)
		}
	}
	// The frame loads with the session cookie: the browser decoded a PNG.
	if w := run(t, bctx, chromedp.Poll[int](`(() => { const i = document.querySelector("#step-1 img"); return i.complete && i.naturalWidth; })()`, chromedp.WithPollingTimeout(5*time.Second))); w != 320 {
		t.Errorf("frame 1 naturalWidth = %d; want 320", w)
	}
	shot(t, bctx, filepath.Join(dir, "review-before.png"))

	err = chromedp.Do(bctx, chromedp.Click("#remove-2"), chromedp.Click("#redact-3"))
	if err != nil {
		t.Fatalf("tick the boxes: %v", err)
	}
	// Tab from the last box ticked to the apply button, as a keyboard user would.
	tabs := 0
	for ; tabs < 40 && run(t, bctx, chromedp.Evaluate[string](`document.activeElement.id`)) != "apply"; tabs++ {
		if err := chromedp.Do(bctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
	}
	if tabs == 40 {
		t.Fatal("Tab never reached the apply button")
	}
	if o := run(t, bctx, chromedp.Evaluate[string](`getComputedStyle(document.activeElement).outlineStyle`)); o == "none" {
		t.Error("the focused apply button shows no outline")
	}
	shot(t, bctx, filepath.Join(dir, "review-ticked.png"))
	err = chromedp.Do(bctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible("#confirmation"))
	if err != nil {
		t.Fatalf("apply with Enter: %v", err)
	}
	const wantDone = "Review applied: 5 steps kept; you can close this page."
	if got := run(t, bctx, chromedp.Text("#confirmation")); got != wantDone {
		t.Errorf("confirmation = %q; want %q", got, wantDone)
	}
	shot(t, bctx, filepath.Join(dir, "review-applied.png"))
	calls := f.calls()
	if len(calls) != 1 || !slices.Equal(calls[0].removed, []uint64{2}) || !slices.Equal(calls[0].redacted, []uint64{3}) {
		t.Errorf("Source.Apply calls = %v; want one with removed [2], redacted [3]", calls)
	}
	select {
	case <-s.Done():
	case <-time.After(5 * time.Second):
		t.Error("Done() not closed after apply")
	}
	// Reloading the review page after apply is refused.
	if err := chromedp.Do(bctx, chromedp.Navigate(origin(s)+"/review")); err != nil {
		t.Fatal(err)
	}
	if got := run(t, bctx, chromedp.Evaluate[string](`document.body.innerText`)); !strings.Contains(got, "410") {
		t.Errorf("the page after apply = %q; want 410", got)
	}
}

// launch starts Chromium without extensions and returns a chromedp context
// on it; everything stops with the test.
func launch(ctx context.Context, t *testing.T) context.Context {
	t.Helper()
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	actx, acancel := remote.NewAllocator(ctx, br.DevTools)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	return bctx
}

func run[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func shot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	if err := os.WriteFile(path, run(t, ctx, chromedp.FullScreenshot(100)), 0o600); err != nil {
		t.Fatal(err)
	}
}
