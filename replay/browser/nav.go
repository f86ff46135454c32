package browser

import (
	"cmp"
	"context"
	"errors"
	neturl "net/url"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// navWatch follows the main frame's loads from the tab's events. A click
// or a submit may start a navigation that the page asks for only after the
// step's script returned, and while the next page is on its way the old one
// still answers queries: the next step must wait for the new page rather
// than find its element on the old one.
type navWatch struct {
	main cdp.FrameID

	mu      sync.Mutex
	seq     int           // navigations requested or started so far
	loading bool          // the main frame is loading
	loaded  chan struct{} // closed when it stops loading
	url     string        // where the main frame's last navigation left it
}

// location is the main frame's URL as its navigations, within the document
// too, left it: what document.location says, without asking the page, which
// a busy page answers late.
func (w *navWatch) location() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.url
}

// at sets the URL the main frame shows when the watch begins.
func (w *navWatch) at(f *cdp.Frame) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.url = f.URL + f.URLFragment
}

// observe runs on chromedp's reader goroutine: it only records.
func (w *navWatch) observe(ev any) {
	var id cdp.FrameID
	start := false
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		if ev.Frame.ID == w.main {
			w.at(ev.Frame)
		}
		return
	case *page.EventNavigatedWithinDocument:
		if ev.FrameID == w.main {
			w.mu.Lock()
			w.url = ev.URL
			w.mu.Unlock()
		}
		return
	case *page.EventFrameRequestedNavigation:
		id, start = ev.FrameID, ev.Disposition == page.ClientNavigationDispositionCurrentTab
	case *page.EventFrameStartedLoading:
		id, start = ev.FrameID, true
	case *page.EventFrameStoppedLoading:
		id = ev.FrameID
	default:
		return
	}
	if id != w.main {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if start {
		w.seq++
		if !w.loading {
			w.loaded = make(chan struct{})
		}
		w.loading = true
	} else if _, ok := ev.(*page.EventFrameStoppedLoading); ok && w.loading {
		w.loading = false
		close(w.loaded)
	}
}

// done is closed once the main frame is not loading.
func (w *navWatch) done() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.loading {
		return closed
	}
	return w.loaded
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (w *navWatch) state() (seq int, loading bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seq, w.loading
}

// settle lets the page run what a click or submit queued (the task that
// starts a form's navigation), then, when a navigation began since seq,
// waits up to limit for the new page to load. A navigation that never
// finishes is not an error here: the step's assert or the next step's find
// says what the page shows.
func (e *Executor) settle(ctx context.Context, seq int, limit time.Duration) error {
	if now, _ := e.nav.state(); now != seq {
		// The navigation began already: asking the page now only holds up
		// its new document.
		return e.waitLoaded(ctx, limit)
	}
	if _, err := chromedp.Run(ctx, pageOp[bool](e.world, "settle", nil, chromedp.EvalAwaitPromise)); err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if now, _ := e.nav.state(); now == seq {
		return nil
	}
	return e.waitLoaded(ctx, limit)
}

// waitLoaded waits up to limit while the main frame is loading.
func (e *Executor) waitLoaded(ctx context.Context, limit time.Duration) error {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-e.nav.done():
		return nil
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// navigate opens url in the tab. The page before may still send the tab
// elsewhere: a form's script that goes to the saved record a moment after
// its POST answered, on a busy machine after the next row's navigate has
// begun. Its navigation then cancels this one (net::ERR_ABORTED), or this
// one returns on its page. Either way the tab is let settle and url opened
// once more; a page that redirects on its own lands where it did the
// first time, and is left there.
func (e *Executor) navigate(ctx context.Context, url string) error {
	err := chromedp.Do(ctx, chromedp.Navigate(url))
	var le *chromedp.LoadError
	if aborted := errors.As(err, &le) && le.ErrorText == "net::ERR_ABORTED"; !aborted {
		if err != nil {
			return err
		}
		if samePage(e.nav.location(), url) {
			return nil
		}
	}
	if err := e.waitLoaded(ctx, 10*time.Second); err != nil {
		return err
	}
	return chromedp.Do(ctx, chromedp.Navigate(url))
}

// samePage says whether two URLs name one page: scheme, host and path
// (an empty path is the root's).
func samePage(a, b string) bool {
	ua, errA := neturl.Parse(a)
	ub, errB := neturl.Parse(b)
	path := func(u *neturl.URL) string { return cmp.Or(u.EscapedPath(), "/") }
	return errA == nil && errB == nil && strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) && path(ua) == path(ub)
}
