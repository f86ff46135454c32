package chrome_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extension"
	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/internal/paired"
	"github.com/reprise-dev/reprise/internal/syncbuf"
	"github.com/reprise-dev/reprise/ops"
)

// formPage has stable ids, a field whose id changes on every load, fields
// known only by their labels, a select, a checkbox, a radio group, a date, a
// textarea, a password, an input in an open shadow root, and a route change.
const sidePage = `<!doctype html><label for="vat">VAT number</label><input id="vat">`

// serveForm serves the form, and the same-origin frame inside it.
func serveForm() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/side" {
			fmt.Fprint(w, sidePage)
			return
		}
		fmt.Fprint(w, formPage)
	}))
}

const formPage = `<!doctype html><title>New customer</title>
<form id="f" onsubmit="event.preventDefault(); history.pushState({}, '', '/customers/saved'); document.getElementById('done').textContent='Saved'">
 <label for="first_name">First Name</label><input id="first_name" name="first_name">
 <label>Email <input type="email" name="email"></label>
 <label for="gen">Company</label><input id="gen">
 <input aria-label="Password" type="password" id="pw">
 <select id="country" name="country"><option>Canada</option><option>France</option><option>Germany</option></select>
 <label><input type="checkbox" id="news"> Newsletter</label>
 <label><input type="radio" name="plan" value="basic"> Basic</label>
 <label><input type="radio" name="plan" value="pro" id="pro"> Pro</label>
 <label for="since">Customer since</label><input type="date" id="since">
 <label for="notes">Notes</label><textarea id="notes"></textarea>
 <div id="host"></div>
 <label for="doc">Contract</label><input type="file" id="doc">
 <iframe id="side" src="/side"></iframe>
 <button type="submit">Save</button>
</form><p id="done"></p>
<script>
 const g = document.getElementById("gen"); g.id = "input-" + Math.random().toString(16).slice(2, 12);
 document.querySelector('label[for="gen"]').htmlFor = g.id;
 const root = document.getElementById("host").attachShadow({mode: "open"});
 root.innerHTML = '<label for="ref">Reference</label><input id="ref" name="ref">';
</script>`

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
	var logs syncbuf.Buffer
	d, err := daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	site := serveForm()
	defer site.Close()
	defer func() {
		if strings.Contains(logs.String(), "hunter2-secret") {
			t.Error("the password reached the daemon's log")
		}
	}()

	bctx := pairedBrowser(ctx, t, home)
	started := startBrowserRecording(ctx, t, home)
	waitRecording(t, bctx)

	rows := []map[string]string{
		{"first": "Ada", "email": "ada@example.com", "company": "Analytical Engines", "country": "France", "since": "2024-03-01", "notes": "Prefers email", "ref": "REF-1", "vat": "GB123"},
		{"first": "Grace", "email": "grace@example.com", "company": "Cobol Ltd", "country": "Canada", "since": "2023-12-09", "notes": "Call first", "ref": "REF-2", "vat": "CA456"},
	}
	contract := filepath.Join(t.TempDir(), "contract.pdf")
	if err := os.WriteFile(contract, []byte("%PDF-1.4 not really"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		err = chromedp.Do(bctx,
			chromedp.Navigate(site.URL+"/customers/new"),
			chromedp.WaitVisible("#first_name"),
			chromedp.Click("#first_name"), chromedp.SendKeys("#first_name", row["first"]),
			chromedp.Click(`input[name=email]`), chromedp.SendKeys(`input[name=email]`, row["email"]),
			chromedp.Click(`input[id^="input-"]`), chromedp.SendKeys(`input[id^="input-"]`, row["company"]),
			chromedp.Click("#pw"), chromedp.SendKeys("#pw", "hunter2-secret"),
			chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("country"); s.value = "`+row["country"]+`"; s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
			chromedp.Click("#news"),
			chromedp.Click("#pro"),
			chromedp.Evaluate[chromedp.Void](`(() => { const d = document.getElementById("since"); d.value = "`+row["since"]+`"; d.dispatchEvent(new Event("change", {bubbles: true})); })()`),
			chromedp.Click("#notes"), chromedp.SendKeys("#notes", row["notes"]),
			chromedp.Evaluate[chromedp.Void](`(() => { const i = document.getElementById("host").shadowRoot.getElementById("ref"); i.focus(); i.value = "`+row["ref"]+`"; i.dispatchEvent(new Event("change", {bubbles: true, composed: true})); })()`),
			chromedp.SetUploadFiles("#doc", []string{contract}),
			chromedp.Action[chromedp.Void](func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
				_, err := chromedp.Poll[bool](`!!document.getElementById("side").contentDocument?.getElementById("vat")`, chromedp.WithPollingTimeout(5*time.Second))(ctx, t)
				return chromedp.Void{}, err
			}),
			chromedp.Evaluate[chromedp.Void](`(() => { const i = document.getElementById("side").contentDocument.getElementById("vat"); i.value = "`+row["vat"]+`"; i.dispatchEvent(new Event("change", {bubbles: true})); })()`),
			chromedp.Click(`button[type=submit]`),
			chromedp.WaitVisible(`#done`),
		)
		if err != nil {
			t.Fatalf("play the person: %v", err)
		}
		time.Sleep(300 * time.Millisecond) // a person does not leave a page within a blink
	}
	// A tab on another origin while the recording runs: nothing of it counts.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<!doctype html><label for="x">Elsewhere</label><input id="x">`)
	}))
	defer other.Close()
	if err := chromedp.Do(bctx, chromedp.Navigate(other.URL), chromedp.WaitVisible("#x"), chromedp.Click("#x"), chromedp.SendKeys("#x", "off-list"), chromedp.Click("label")); err != nil {
		t.Fatal(err)
	}
	rec := stopAndFetch(ctx, t, home, started) // the stop takes the submit the extension holds for its effect
	fills := map[string][]string{}
	var got []string
	for _, s := range rec.Steps {
		label := s.Enrichment.Label
		got = append(got, s.Action+":"+label)
		if s.Enrichment.URL != "" && !strings.HasPrefix(s.Enrichment.URL, site.URL) {
			t.Errorf("a step from %s, off the allowed origin", s.Enrichment.URL)
		}
		if s.Action == events.ActionFill || s.Action == events.ActionSelect {
			fills[label] = append(fills[label], s.Value.Raw)
			if label != "" && label != "Password" && countStrategies(s) < 3 {
				t.Errorf("%s has %d selector strategies; want at least 3", label, countStrategies(s))
			}
		}
	}
	t.Logf("recorded %d steps: %v", len(got), got)
	for label, want := range map[string][]string{
		"First Name": {"Ada", "Grace"}, "Email": {"ada@example.com", "grace@example.com"},
		"Company": {"Analytical Engines", "Cobol Ltd"}, "Customer since": {"2024-03-01", "2023-12-09"},
		"Notes": {"Prefers email", "Call first"}, "Reference": {"REF-1", "REF-2"}, "Password": {"", ""},
		"VAT number": {"GB123", "CA456"},
	} {
		if strings.Join(fills[label], "|") != strings.Join(want, "|") {
			t.Errorf("%s committed %q; want %q", label, fills[label], want)
		}
	}
	for _, s := range rec.Steps {
		if s.Enrichment.Label == "Company" {
			for _, sel := range s.Enrichment.Selectors {
				if sel.Strategy == events.StrategyID {
					t.Errorf("the generated id %s was kept as a selector", sel.Value)
				}
			}
		}
	}
	uploads := 0
	for _, s := range rec.Steps {
		if s.Action == events.ActionUpload {
			uploads++
			if s.Value.Raw != "contract.pdf (19 bytes)" || s.Value.Type != events.ValueFile {
				t.Errorf("upload step value %+v; want the file's name and size only", s.Value)
			}
		}
	}
	if uploads != 2 {
		t.Errorf("%d uploads recorded; want 2", uploads)
	}
	routes := 0
	for _, s := range rec.Steps {
		if s.Action == events.ActionNavigate && s.Value != nil && strings.HasSuffix(s.Value.Raw, "/customers/saved") {
			routes++
		}
	}
	if routes != 2 {
		t.Errorf("%d route changes recorded; want 2", routes)
	}
	if raw, _ := json.Marshal(rec); strings.Contains(string(raw), "hunter2-secret") || strings.Contains(string(raw), "off-list") {
		t.Error("the password or an off-origin value reached the recording")
	}
	frames := 0
	for _, s := range rec.Steps {
		if s.ScreenshotRef == "" {
			continue
		}
		img, err := d.Frame(ctx, rec.RecordingID, s.ScreenshotRef)
		if err != nil {
			t.Fatalf("frame of step %d: %v", s.Seq, err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img))
		if err != nil || cfg.Width < 400 {
			t.Fatalf("frame of step %d is not a page screenshot: %v %+v", s.Seq, err, cfg)
		}
		frames++
	}
	// Chrome allows two captureVisibleTab calls a second, and chromedp acts
	// far faster than a person, so only some steps get their frame here.
	if frames < len(rows) {
		t.Errorf("%d of %d steps have a frame; want at least one a row", frames, len(rec.Steps))
	}
	t.Logf("%d of %d steps have a pre-action frame", frames, len(rec.Steps))
}

func countStrategies(s events.Step) int {
	seen := map[string]bool{}
	for _, sel := range s.Enrichment.Selectors {
		seen[sel.Strategy] = true
	}
	return len(seen)
}

// pairedBrowser starts Chromium with the extension and pairs it with the
// daemon serving home, through the link `reprise extension pair` prints.
// startDaemon starts a daemon on a fresh data dir, stopped when the test
// ends, and returns the dir.
func startDaemon(ctx context.Context, t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	d, err := daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	return home
}

func pairedBrowser(ctx context.Context, t testing.TB, home string) context.Context {
	t.Helper()
	b, err := paired.Launch(ctx, home, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b.Ctx
}

// launch starts Chromium, with the extension when ext is set, and returns a
// chromedp context on it.
func launch(ctx context.Context, t testing.TB, ext bool) context.Context {
	t.Helper()
	o := chromium.Options{ProfileDir: t.TempDir()}
	if ext {
		dir, err := extension.WriteTo(filepath.Join(t.TempDir(), "ext"))
		if err != nil {
			t.Fatal(err)
		}
		o.Extension = dir
	}
	br, err := chromium.Launch(ctx, o)
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

func approve(ctx context.Context, t testing.TB, oc *ops.Client, cl *client.Consent) string {
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

// TestDaemonRestartMidRecording restarts the daemon while the person is
// filling the form: the extension keeps what it could not send, the daemon
// resumes the recording, and every field is recorded once, in order.
func TestDaemonRestartMidRecording(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	home := t.TempDir()
	d, err := daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	site := serveForm()
	defer site.Close()
	bctx := pairedBrowser(ctx, t, home)
	started := startBrowserRecording(ctx, t, home)
	waitRecording(t, bctx)

	if err := chromedp.Do(bctx, chromedp.Navigate(site.URL+"/customers/new"), chromedp.WaitVisible("#first_name"),
		chromedp.Click("#first_name"), chromedp.SendKeys("#first_name", "Ada"),
		chromedp.Click(`input[name=email]`), chromedp.SendKeys(`input[name=email]`, "ada@example.com"),
		chromedp.Click("#notes")); err != nil {
		t.Fatal(err)
	}
	waitFills(ctx, t, home, started, 2)
	d.Close() // the daemon goes away while the person carries on
	if err := chromedp.Do(bctx, chromedp.SendKeys("#notes", "typed while the daemon was away"),
		chromedp.Click(`input[id^="input-"]`), chromedp.SendKeys(`input[id^="input-"]`, "Analytical Engines"),
		chromedp.Click("#first_name")); err != nil {
		t.Fatal(err)
	}
	if d, err = daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI}); err != nil {
		t.Fatal(err)
	}
	// The extension reconnects at its next hello and sends what it held;
	// the daemon resumes the recording.
	waitFills(ctx, t, home, started, 4)
	if err := chromedp.Do(bctx, chromedp.Click("#pro"), chromedp.Click(`button[type=submit]`), chromedp.WaitVisible("#done")); err != nil {
		t.Fatal(err)
	}
	rec := stopAndFetch(ctx, t, home, started)
	var got []string
	for _, s := range rec.Steps {
		if s.Action == events.ActionFill {
			got = append(got, s.Enrichment.Label+"="+s.Value.Raw)
		}
	}
	want := []string{"First Name=Ada", "Email=ada@example.com", "Notes=typed while the daemon was away", "Company=Analytical Engines"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("fills across the restart = %q; want %q", got, want)
	}
	for i, s := range rec.Steps {
		if s.Seq != uint64(i+1) {
			t.Fatalf("step %d has seq %d: a gap or a repeat across the restart", i, s.Seq)
		}
	}
	clicks := 0
	for _, s := range rec.Steps {
		if s.Action == events.ActionSubmit {
			clicks++
		}
	}
	if clicks != 1 {
		t.Errorf("%d submits recorded; want 1", clicks)
	}
}

func startBrowserRecording(ctx context.Context, t testing.TB, home string) ops.Started {
	t.Helper()
	nc, ci, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	oc := ops.NewClient(nc, events.OpsSubject(ci.MachineID))
	var started ops.Started
	deadline := time.Now().Add(20 * time.Second)
	for {
		tok := approve(ctx, t, oc, client.NewConsent(nc))
		err = oc.Call(ctx, ops.TypeStart, ops.StartRequest{Mode: "demonstration", InterpretationRoute: "extract_then_cloud", Channels: []string{"browser"}, ConsentToken: tok}, &started)
		if err == nil || time.Now().After(deadline) || !strings.Contains(err.Error(), ops.CodeRecordingChannelUnavailable) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return started
}

// waitFills waits until the running recording holds n fill steps.
func waitFills(ctx context.Context, t testing.TB, home string, started ops.Started, n int) {
	t.Helper()
	var fills int
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		nc, ci, err := client.Connect(home)
		if err != nil {
			continue
		}
		var rec events.Recording
		err = ops.NewClient(nc, events.OpsSubject(ci.MachineID)).Call(ctx, ops.TypeFetch, started.Ref(), &rec)
		nc.Close()
		if err != nil {
			continue
		}
		fills = 0
		for _, s := range rec.Steps {
			if s.Action == events.ActionFill {
				fills++
			}
		}
		if fills >= n {
			return
		}
	}
	t.Fatalf("the recording holds %d fills after a minute; want %d", fills, n)
}

func stopAndFetch(ctx context.Context, t testing.TB, home string, started ops.Started) events.Recording {
	t.Helper()
	nc, ci, err := client.Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	oc := ops.NewClient(nc, events.OpsSubject(ci.MachineID))
	var sum ops.Summary
	if err := oc.Call(ctx, ops.TypeStop, started.Ref(), &sum); err != nil {
		t.Fatal(err)
	}
	var rec events.Recording
	if err := oc.Call(ctx, ops.TypeFetch, started.Ref(), &rec); err != nil {
		t.Fatal(err)
	}
	return rec
}
