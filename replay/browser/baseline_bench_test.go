package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// benchRows is how many rows each tool files per iteration of BenchmarkRows.
const benchRows = 10

// BenchmarkRows files the same rows of the local form with reprise and with
// what a person would otherwise use, in the same run, each on its own
// browser already up: a handwritten Playwright script by label, a Chrome
// DevTools Recorder recording replayed by @puppeteer/replay, and the floor,
// one page call that sets every field and submits. Each reports ms/row.
func BenchmarkRows(b *testing.B) {
	ex, s := browser(b)
	perRow := func(b *testing.B, d time.Duration) {
		b.ReportMetric(float64(d.Milliseconds())/float64(b.N*benchRows), "ms/row")
	}
	b.Run("reprise", func(b *testing.B) {
		r := newBenchRun(b, engineSkill(s.URL), ex)
		var took time.Duration
		for i := 0; i < b.N; i++ {
			took += r.file(b, benchRows)
		}
		perRow(b, took)
	})
	b.Run("floor", func(b *testing.B) {
		// A plain tab of the same browser: the floor pays none of the
		// executor's per-document scripts.
		nav := &navWatch{}
		tab, cancel := chromedp.NewContext(ex.tab, chromedp.WithListener(nav.observe))
		defer cancel()
		tree, err := chromedp.Call(tab, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			b.Fatal(err)
		}
		nav.main = tree.FrameTree.Frame.ID
		var took time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			for r := 1; r <= benchRows; r++ {
				set := fmt.Sprintf(`(() => { const f = document.forms[0]; f.first_name.value = "Ada"; f.email.value = "ada%d@example.com";
					f.country.value = "fr"; f.since.value = "2024-03-01"; f.notes.value = "Prefers email"; f.requestSubmit(); return true; })()`, r)
				if err := chromedp.Do(tab, chromedp.Navigate(s.URL+"/customers/new")); err != nil {
					b.Fatal(err)
				}
				seq, _ := nav.state()
				if err := chromedp.Do(tab, chromedp.Evaluate[chromedp.Void](set)); err != nil {
					b.Fatal(err)
				}
				// The saved page loaded: polled each millisecond, so the
				// floor pays no wait of its own.
				for now, loading := nav.state(); now == seq || loading; now, loading = nav.state() {
					time.Sleep(time.Millisecond)
				}
			}
			took += time.Since(start)
		}
		perRow(b, took)
	})
	for _, tool := range []string{"playwright", "puppeteer-replay"} {
		b.Run(tool, func(b *testing.B) {
			script, env := nodeBaseline(b, tool)
			var took time.Duration
			for i := 0; i < b.N; i++ {
				took += runNode(b, script, env, s.URL)
			}
			perRow(b, took)
		})
	}
}

// BenchmarkParallel files rows of a form whose server takes 300 ms to
// confirm each, with one tab and with four (--parallel 4): ms/row each.
func BenchmarkParallel(b *testing.B) {
	ex, s := browser(b)
	sk := engineSkill(s.URL)
	sk.Steps[0].Value = s.URL + "/customers/slow/new"
	for _, n := range []int{1, 4} {
		b.Run(fmt.Sprint("tabs-", n), func(b *testing.B) {
			r := newBenchRun(b, sk, ex)
			for range n - 1 {
				t, err := ex.Tab(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { _ = t.Close() })
				r.others = append(r.others, t)
			}
			const rows = 50 // the size of the bundled demo CSV the issue measured with
			var took time.Duration
			for i := 0; i < b.N; i++ {
				took += r.file(b, rows)
			}
			b.ReportMetric(float64(took.Milliseconds())/float64(b.N*rows), "ms/row")
		})
	}
}

// benchRun files rows of a skill through the whole engine, on the REPLAY
// log of a server of its own, after the dry run a run needs.
type benchRun struct {
	js     jetstream.JetStream
	skill  *skills.Skill
	ex     replay.Executor
	others []replay.Executor
	runs   int
}

func newBenchRun(b *testing.B, sk *skills.Skill, ex replay.Executor) *benchRun {
	_, _, js := natstest.Start(b, "m_bench")
	r := &benchRun{js: js, skill: sk, ex: ex}
	r.run(b, 1, replay.Options{DryRun: true})
	return r
}

// file files n rows and returns how long they took.
func (r *benchRun) file(b *testing.B, n int) time.Duration {
	start := time.Now()
	r.run(b, n, replay.Options{Yes: true})
	return time.Since(start)
}

func (r *benchRun) run(b *testing.B, n int, o replay.Options) {
	ctx := context.Background()
	r.runs++
	id := fmt.Sprint("bench", r.runs)
	p := &replay.Plan{RunID: id, SkillID: "rows", Skill: r.skill, Digest: "d1", CSV: id}
	for i := 1; i <= n; i++ {
		p.Rows = append(p.Rows, replay.Row{N: i, Values: map[string]string{"first": "Ada", "email": fmt.Sprintf("ada%d@example.com", i)}, Key: fmt.Sprint(id, i)})
	}
	for i, x := range append([]replay.Executor{r.ex}, r.others...) {
		stop, err := replay.ServeWorker(ctx, r.js, p, i, x, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
	}
	o.JS, o.Plan, o.Executor, o.Others, o.Again = r.js, p, r.ex, r.others, true
	res, err := replay.Run(ctx, o)
	if err != nil || res.Failed() {
		b.Fatalf("run: %v %+v", err, res)
	}
}

// nodeBaseline finds a baseline's script and the node modules scripts/deps
// installs under .tools/node; without them the baseline is skipped, loudly.
func nodeBaseline(b *testing.B, tool string) (script string, env []string) {
	modules, err := filepath.Abs("../../.tools/node/node_modules")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(modules); err != nil {
		b.Skipf("SKIP %s baseline: no %s (scripts/deps installs playwright-core and @puppeteer/replay there)", tool, modules)
	}
	if _, err := exec.LookPath("node"); err != nil {
		b.Skipf("SKIP %s baseline: no node on PATH (scripts/deps installs it)", tool)
	}
	script, err = filepath.Abs(filepath.Join("testdata", "baselines", tool+".cjs"))
	if err != nil {
		b.Fatal(err)
	}
	return script, append(os.Environ(), "NODE_PATH="+modules)
}

// runNode runs a baseline's script for benchRows rows and returns the time
// it says the rows took once its browser was up.
func runNode(b *testing.B, script string, env []string, url string) time.Duration {
	// The browser reprise replays in: the headless shell where there is one,
	// which is also what Playwright itself runs headless.
	bin, ok := chromium.FindShell()
	if !ok {
		var err error
		if bin, err = chromium.Find(); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command("node", script, url, fmt.Sprint(benchRows), bin)
	cmd.Env = env
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s: %v", filepath.Base(script), err)
	}
	var res struct{ MS float64 }
	if err := json.Unmarshal(out, &res); err != nil {
		b.Fatalf("%s printed %q: %v", filepath.Base(script), out, err)
	}
	return time.Duration(res.MS * float64(time.Millisecond))
}
