package chrome_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/consent"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extension"
	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/ops"
)

const formPage = `<!doctype html><title>New customer</title>
<form id="f" onsubmit="event.preventDefault(); document.getElementById('done').textContent='Saved'">
 <label for="first_name">First Name</label><input id="first_name" name="first_name">
 <label>Email <input type="email" name="email"></label>
 <input aria-label="Password" type="password" id="pw">
 <select id="country" name="country"><option>Canada</option><option>France</option></select>
 <label><input type="checkbox" id="news"> Newsletter</label>
 <button type="submit">Save</button>
</form><p id="done"></p>`

// TestExtensionRecordsAForm is the browser channel for real: Debian's
// Chromium with the reprise extension loaded, paired with a real daemon,
// chromedp playing the person on a local form.
func TestExtensionRecordsAForm(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	home := t.TempDir()
	d, err := daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, formPage) }))
	defer site.Close()

	extDir, err := extension.WriteTo(filepath.Join(t.TempDir(), "ext"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := chromium.Launch(ctx, chromium.Options{Extension: extDir, ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	actx, acancel := remote.NewAllocator(ctx, b.DevTools)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()

	// Pair, as `reprise extension pair` prints.
	p, err := daemon.RequestPairing(home)
	if err != nil {
		t.Fatal(err)
	}
	link := pairLink(t, p)
	if err := chromedp.Do(bctx, chromedp.Navigate(link), chromedp.WaitVisible("#status")); err != nil {
		t.Fatalf("pairing page: %v", err)
	}
	paired, err := chromedp.Run(bctx, chromedp.Poll[string](`document.getElementById("status").dataset.paired`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil || paired != "true" {
		t.Fatalf("pairing page: %v (paired %q)", err, paired)
	}

	// Consent and start, once the extension has said hello.
	nc, ci, err := daemon.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	oc := ops.NewClient(nc, events.OpsSubject(ci.MachineID))
	var started ops.Started
	deadline := time.Now().Add(20 * time.Second)
	for {
		tok := approve(ctx, t, oc, consent.NewClient(nc))
		err = oc.Call(ctx, ops.TypeStart, ops.StartRequest{Mode: "demonstration", InterpretationRoute: "extract_then_cloud", Channels: []string{"browser"}, ConsentToken: tok}, &started)
		if err == nil || time.Now().After(deadline) || !strings.Contains(err.Error(), ops.CodeChannelUnavailable) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	time.Sleep(2500 * time.Millisecond) // the extension learns at its next hello that a recording is on

	err = chromedp.Do(bctx,
		chromedp.Navigate(site.URL),
		chromedp.WaitVisible("#first_name"),
		chromedp.Click("#first_name"), chromedp.SendKeys("#first_name", "Ada"),
		chromedp.Click(`input[name=email]`), chromedp.SendKeys(`input[name=email]`, "ada@example.com"),
		chromedp.Click("#pw"), chromedp.SendKeys("#pw", "hunter2-secret"),
		chromedp.Click("#country"),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("country"); s.value = "France"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		chromedp.Click("#news"),
		chromedp.Click(`button[type=submit]`),
		chromedp.WaitVisible(`#done`),
	)
	if err != nil {
		t.Fatalf("play the person: %v", err)
	}
	time.Sleep(1500 * time.Millisecond)
	var sum ops.Summary
	if err := oc.Call(ctx, ops.TypeStop, ops.RecordingRef(started), &sum); err != nil {
		t.Fatal(err)
	}
	var rec events.Recording
	if err := oc.Call(ctx, ops.TypeFetch, ops.RecordingRef(started), &rec); err != nil {
		t.Fatal(err)
	}
	var got []string
	byLabel := map[string]events.Step{}
	for _, s := range rec.Steps {
		label := ""
		if s.Enrichment != nil {
			label = s.Enrichment.Label
		}
		got = append(got, s.Action+":"+label)
		byLabel[s.Action+":"+label] = s
	}
	t.Logf("recorded: %v", got)
	for _, want := range []string{"fill:First Name", "fill:Email", "fill:Password", "select:", "click:Newsletter", "click:Save", "submit:"} {
		if _, ok := byLabel[want]; !ok {
			t.Errorf("no %s step", want)
		}
	}
	first := byLabel["fill:First Name"]
	if first.Value == nil || first.Value.Raw != "Ada" || len(first.Enrichment.Selectors) < 3 || first.Enrichment.Selectors[0].Strategy != "id" {
		t.Errorf("First Name step = %+v", first)
	}
	if pw := byLabel["fill:Password"]; pw.Value == nil || pw.Value.Raw != "" || pw.Value.Type != events.ValueSecret {
		t.Errorf("password step carries %+v; want a secret without a value", pw.Value)
	}
	withFrames := 0
	for _, s := range rec.Steps {
		if s.ScreenshotRef != "" {
			withFrames++
		}
	}
	if withFrames == 0 {
		t.Error("no step has a pre-action frame")
	}
	if raw, _ := json.Marshal(rec); strings.Contains(string(raw), "hunter2-secret") {
		t.Error("the password reached the recording")
	}
}

func pairLink(t *testing.T, p daemon.Pairing) string {
	t.Helper()
	// The same link `reprise extension pair` prints.
	return extension.PairingURL(p.URL, p.User, p.Password)
}

func approve(ctx context.Context, t *testing.T, oc *ops.Client, cl *consent.Client) string {
	t.Helper()
	done := make(chan ops.ConsentResult, 1)
	go func() {
		var r ops.ConsentResult
		_ = oc.Call(ctx, ops.TypeRequestConsent, ops.ConsentRequest{Mode: "demonstration", InterpretationRoute: "extract_then_cloud", Channels: []string{"browser"}}, &r)
		done <- r
	}()
	for {
		ps, err := cl.List(ctx)
		if err == nil && len(ps) > 0 {
			_ = cl.Approve(ctx, ps[0].ID, false)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return (<-done).ConsentToken
}
