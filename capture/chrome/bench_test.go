package chrome_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/daemon"
	"github.com/reprise-dev/reprise/events"
)

const latencyPage = `<!doctype html><title>latency</title>
<input id="a" aria-label="A"><input id="b" aria-label="B">
<script>
 window.lat = [];
 document.getElementById("a").addEventListener("input", (e) => window.lat.push(performance.now() - e.timeStamp));
</script>`

// BenchmarkInputLatency measures, in the page, the time from a CDP key event
// to the page's own input handler, with the extension loaded and without,
// in the same run. Typing goes to field A; the extension's listeners see it.
func BenchmarkInputLatency(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, latencyPage) }))
	defer site.Close()
	for _, ext := range []bool{false, true} {
		name := "plain"
		if ext {
			name = "extension"
		}
		b.Run(name, func(b *testing.B) {
			bctx := launch(ctx, b, ext)
			if err := chromedp.Do(bctx, chromedp.Navigate(site.URL), chromedp.WaitVisible("#a"), chromedp.Click("#a")); err != nil {
				b.Fatal(err)
			}
			keys := 0
			for b.Loop() {
				if err := chromedp.Do(bctx, chromedp.SendKeys("#a", "x")); err != nil {
					b.Fatal(err)
				}
				keys++
			}
			lat, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64]("window.lat"))
			if err != nil || len(lat) == 0 {
				b.Fatalf("latencies: %v (%d)", err, len(lat))
			}
			slices.Sort(lat)
			b.ReportMetric(lat[len(lat)/2]*1000, "p50-us")
			b.ReportMetric(lat[len(lat)*99/100]*1000, "p99-us")
		})
	}
}

// BenchmarkStepToCapture measures the time from the DOM event (the step's ts,
// set by the content script) to the step's arrival in CAPTURE, where the
// daemon's publish is acked, for committed fills typed by chromedp.
func BenchmarkStepToCapture(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	home := b.TempDir()
	d, err := daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, latencyPage) }))
	defer site.Close()
	bctx := pairedBrowser(ctx, b, home)
	started := startBrowserRecording(ctx, b, home)
	time.Sleep(2500 * time.Millisecond)

	// Arrival times in CAPTURE, by seq, from the dedupe id (content is sealed).
	var mu sync.Mutex
	arrived := map[uint64]time.Time{}
	nc, err := d.Server().ConnectInProcess("bench")
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	sub, err := nc.Subscribe(events.CaptureSubject(started.RecordingID), func(m *nats.Msg) {
		id := m.Header.Get(jetstream.MsgIDHeader)
		seq, _ := strconv.ParseUint(id[strings.LastIndexByte(id, ':')+1:], 10, 64)
		mu.Lock()
		arrived[seq] = time.Now()
		mu.Unlock()
	})
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := chromedp.Do(bctx, chromedp.Navigate(site.URL), chromedp.WaitVisible("#a")); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if err := chromedp.Do(bctx, chromedp.Click("#a"), chromedp.SendKeys("#a", fmt.Sprint(i%10)), chromedp.Click("#b")); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	time.Sleep(time.Second)
	rec := stopAndFetch(ctx, b, home, started)
	var lat []float64
	framed := 0
	mu.Lock()
	for _, s := range rec.Steps {
		if at, ok := arrived[s.Seq]; ok && s.Action == events.ActionFill {
			lat = append(lat, float64(at.UnixNano())/1e6-s.TS*1000)
			if s.ScreenshotRef != "" {
				framed++
			}
		}
	}
	mu.Unlock()
	if len(lat) == 0 {
		b.Fatal("no fill reached CAPTURE")
	}
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)*99/100], "p99-ms")
	b.ReportMetric(float64(framed*100/len(lat)), "framed-%")
}

const savePage = `<!doctype html><title>save</title><form><input id="n" aria-label="Name"><button type="button" id="save">Save</button></form>
<p id="done" role="status"></p>
<script>
 let n = 0;
 document.getElementById("save").addEventListener("click", async () => {
  await fetch("/save", {method: "POST", body: "x"});
  document.getElementById("done").textContent = "Saved " + (++n);
 });
</script>`

// BenchmarkEffectToCapture measures how long a destructive step waits in
// the extension for its effect to settle: from the click on a button that
// saves in place (fetch answered at once, a banner) to the step's arrival
// in CAPTURE. The settling rule makes it the last change plus 1.5 s.
func BenchmarkEffectToCapture(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	home := b.TempDir()
	d, err := daemon.Start(ctx, daemon.Options{Home: home, ConsentPrompt: daemon.PromptCLI})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
			return
		}
		fmt.Fprint(w, savePage)
	}))
	defer site.Close()
	bctx := pairedBrowser(ctx, b, home)
	started := startBrowserRecording(ctx, b, home)
	waitRecording(b, bctx)
	nc, err := d.Server().ConnectInProcess("bench")
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	arrivals := make(chan time.Time, 64)
	sub, err := nc.Subscribe(events.CaptureSubject(started.RecordingID), func(*nats.Msg) { arrivals <- time.Now() })
	if err != nil {
		b.Fatal(err)
	}
	defer sub.Unsubscribe()
	if err := chromedp.Do(bctx, chromedp.Navigate(site.URL), chromedp.WaitVisible(chromedp.CSS("#save"))); err != nil {
		b.Fatal(err)
	}
	<-arrivals // the navigate step
	var lat []float64
	for b.Loop() {
		start := time.Now()
		if err := chromedp.Do(bctx, chromedp.Click(chromedp.CSS("#save"))); err != nil {
			b.Fatal(err)
		}
		select {
		case at := <-arrivals:
			lat = append(lat, float64(at.Sub(start).Milliseconds()))
		case <-time.After(10 * time.Second):
			b.Fatal("the destructive step never reached CAPTURE")
		}
	}
	b.StopTimer()
	stopAndFetch(ctx, b, home, started)
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "p50-ms")
	b.ReportMetric(lat[len(lat)-1], "max-ms")
}
