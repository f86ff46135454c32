package chrome_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/events"
)

const dialogsPage = `<!doctype html><title>Lists</title><p id="out"></p>
<button type="button" onclick="out.textContent = confirm('Clear the list?') ? 'cleared' : 'kept'">Clear list</button>
<button type="button" onclick="out.textContent = confirm('Archive it?') ? 'archived' : 'not archived'">Archive</button>`

// TestDismissedConfirmRecorded: a person cancels one confirm and accepts
// another; the click whose confirm was cancelled is recorded with
// dialog: dismiss, the other without.
func TestDismissedConfirmRecorded(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	home := startDaemon(ctx, t)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, dialogsPage) }))
	defer site.Close()
	bctx := pairedBrowser(ctx, t, home)
	// The person's answers to the dialogs, in order: cancel, then OK.
	answers := make(chan bool, 2)
	answers <- false
	answers <- true
	err := chromedp.Listen(bctx, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			accept := <-answers
			go chromedp.Call(bctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: accept})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	started := startBrowserRecording(ctx, t, home)
	waitRecording(t, bctx)
	shows := func(text string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](fmt.Sprintf(`document.getElementById("out").textContent === %q`, text), chromedp.WithPollingTimeout(10*time.Second))(ctx, t)
			return err
		})
	}
	err = playLogged(bctx, t,
		chromedp.Navigate(site.URL),
		clickText("button", "Clear list"), shows("kept"),
		clickText("button", "Archive"), shows("archived"),
	)
	if err != nil {
		t.Fatal(err)
	}
	rec := stopAndFetch(ctx, t, home, started)
	got := map[string]string{}
	for _, s := range rec.Steps {
		if s.Action == events.ActionClick && s.Enrichment != nil {
			got[s.Enrichment.Label] = s.Enrichment.Dialog
		}
	}
	if d, ok := got["Clear list"]; !ok || d != events.DialogDismiss {
		t.Errorf("Clear list recorded with dialog %q (recorded: %v); want dismiss", d, ok)
	}
	if d, ok := got["Archive"]; !ok || d != "" {
		t.Errorf("Archive recorded with dialog %q (recorded: %v); want none", d, ok)
	}
}
