package chrome_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// demo is a person's recording under way on a page served for it: a
// daemon, a browser with the extension paired with it, and a browser
// recording the extension has joined.
type demo struct {
	ctx     context.Context // bounds the test
	home    string
	tab     context.Context // the paired browser's first tab
	started ops.Started
	url     string // the page's address
}

// demonstrate serves page and starts a recording of it, or skips in
// -short mode.
func demonstrate(t *testing.T, page string) *demo {
	t.Helper()
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	d := &demo{ctx: ctx, home: startDaemon(ctx, t)}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, page) }))
	t.Cleanup(site.Close)
	d.url = site.URL
	d.tab = pairedBrowser(ctx, t, d.home)
	d.started = startBrowserRecording(ctx, t, d.home)
	waitRecording(t, d.tab)
	return d
}

// waitFills waits until the recording holds n fill steps.
func (d *demo) waitFills(t *testing.T, n int) { waitFills(d.ctx, t, d.home, d.started, n) }

// stop stops the recording and returns it.
func (d *demo) stop(t *testing.T) events.Recording { return stopAndFetch(d.ctx, t, d.home, d.started) }
