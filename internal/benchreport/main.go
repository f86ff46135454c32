// Command benchreport reads `go test -bench` output and prints each of
// reprise's performance targets as a ratio against its baseline measured in
// the same run, since these machines are too noisy for absolute numbers to
// mean much from one run to the next.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// comparison is one target: the candidate's metric over the baseline's.
type comparison struct {
	what      string
	candidate metric
	baseline  metric
	// higherIsBetter flips the ratio so that above 1 always means slower.
	higherIsBetter bool
	maxRatio       float64 // 0 means report only
	// maxAbs bounds the candidate's own value from above, minAbs from
	// below (0 means none).
	maxAbs, minAbs float64
}

// metric is one reported value: a benchmark's name without its -N suffix,
// and the unit go test printed after the value.
type metric struct{ bench, unit string }

var comparisons = []comparison{
	{what: "typed publish, sync, p50 (us)", candidate: metric{"BenchmarkPublishSync", "typed-p50-us"}, baseline: metric{"BenchmarkPublishSync", "raw-p50-us"}, maxRatio: 1.10},
	{what: "typed publish, sync, p99 (us)", candidate: metric{"BenchmarkPublishSync", "typed-p99-us"}, baseline: metric{"BenchmarkPublishSync", "raw-p99-us"}, maxRatio: 1.10},
	{what: "typed publish, async (msgs/s)", candidate: metric{"BenchmarkPublishAsync/typed", "msgs/s"}, baseline: metric{"BenchmarkPublishAsync/raw", "msgs/s"}, higherIsBetter: true, maxRatio: 1.10},
	{what: "daemon start to ready, warm store", candidate: metric{"BenchmarkStart/daemon", "ns/op"}, baseline: metric{"BenchmarkStart/nats-server", "ns/op"}, maxAbs: 50e6},
	{what: "daemon idle RSS (MB)", candidate: metric{"BenchmarkIdleRSS/daemon", "rss-MB"}, baseline: metric{"BenchmarkIdleRSS/nats-server", "rss-MB"}, maxAbs: 40},
	{what: "page input latency, extension (us p50)", candidate: metric{"BenchmarkInputLatency/extension", "p50-us"}, baseline: metric{"BenchmarkInputLatency/plain", "p50-us"}, maxRatio: 1.05},
	{what: "page input latency, extension (us p99)", candidate: metric{"BenchmarkInputLatency/extension", "p99-us"}, baseline: metric{"BenchmarkInputLatency/plain", "p99-us"}},
	{what: "DOM event to step in CAPTURE (ms p99)", candidate: metric{"BenchmarkStepToCapture", "p99-ms"}, maxAbs: 20},
	// rows/s >= 0.8x the handwritten program is time a row <= 1.25x.
	{what: "replay, engine vs handwritten chromedp (ns/row)", candidate: metric{"BenchmarkRow/engine", "ns/op"}, baseline: metric{"BenchmarkRow/handwritten", "ns/op"}, maxRatio: 1.25},
	// Rows/s >= 1.5x a handwritten Playwright script is time a row <=
	// 0.667x its; >= 0.9x the one-call floor is <= 1.11x its (issue 36).
	{what: "replay vs handwritten Playwright script (ms/row)", candidate: metric{"BenchmarkRows/reprise", "ms/row"}, baseline: metric{"BenchmarkRows/playwright", "ms/row"}, maxRatio: 0.667},
	{what: "replay vs the one-call floor (ms/row)", candidate: metric{"BenchmarkRows/reprise", "ms/row"}, baseline: metric{"BenchmarkRows/floor", "ms/row"}, maxRatio: 1.11},
	{what: "replay vs @puppeteer/replay of a Recorder flow (ms/row)", candidate: metric{"BenchmarkRows/reprise", "ms/row"}, baseline: metric{"BenchmarkRows/puppeteer-replay", "ms/row"}},
	// --parallel 4 >= 2.5x the rows/s of --parallel 1 is a row's time
	// <= 0.4x, on a form whose server takes 300 ms to confirm.
	{what: "replay --parallel 4 vs 1, 300 ms server (ms/row)", candidate: metric{"BenchmarkParallel/tabs-4", "ms/row"}, baseline: metric{"BenchmarkParallel/tabs-1", "ms/row"}, maxRatio: 0.4},
	// Three workers of a hub file >= 2.5x the rows/s of one where the
	// site's answers bound each tab; with an instant site, what the hub's
	// per-row messages allow on this machine.
	{what: "hub, 3 workers vs 1, 200 ms site (rows/s)", candidate: metric{"BenchmarkHubWorkers/site-200ms/workers-3", "rows/s"}, baseline: metric{"BenchmarkHubWorkers/site-200ms/workers-1", "rows/s"}, higherIsBetter: true, maxRatio: 0.4},
	{what: "hub, 3 workers, instant site (rows/s)", candidate: metric{"BenchmarkHubWorkers/site-0ms/workers-3", "rows/s"}},
	{what: "selector resolution, 400-element page (ms p50)", candidate: metric{"BenchmarkResolve/selector", "p50-ms"}, baseline: metric{"BenchmarkResolve/querySelector", "p50-ms"}},
	{what: "selector resolution, 400-element page (ms p99)", candidate: metric{"BenchmarkResolve/selector", "p99-ms"}, baseline: metric{"BenchmarkResolve/querySelector", "p99-ms"}, maxAbs: 20},
	{what: "selector resolution, 400-element page changed before each (ms p50)", candidate: metric{"BenchmarkResolve/selector-after-change", "p50-ms"}, baseline: metric{"BenchmarkResolve/querySelector", "p50-ms"}},
	{what: "selector resolution, 400-element page changed before each (ms p99)", candidate: metric{"BenchmarkResolve/selector-after-change", "p99-ms"}, baseline: metric{"BenchmarkResolve/querySelector", "p99-ms"}},
	{what: "X11 input event to queued step (us p99)", candidate: metric{"BenchmarkInputToQueue", "p99-µs"}, maxAbs: 50},
	{what: "idle frame ring, 2 frames/s, SHM (% of a core)", candidate: metric{"BenchmarkIdleRing/shm", "%cpu"}, maxAbs: 5},
	{what: "idle frame ring, 2 frames/s, no SHM (% of a core)", candidate: metric{"BenchmarkIdleRing/socket", "%cpu"}, maxAbs: 5},
	{what: "frame grab 1280x800, SHM (ms)", candidate: metric{"BenchmarkGrab/shm", "ms/frame"}},
	{what: "frame PNG encode 1280x800 (ms)", candidate: metric{"BenchmarkEncode", "ms/frame"}},
	{what: "frame PNG size (bytes/step)", candidate: metric{"BenchmarkEncode", "bytes/frame"}},
	// The cache replays what the model chose: after the first row, none.
	{what: "model calls per healed row, replay cache vs none", candidate: metric{"BenchmarkModelCalls/cached", "calls/row"}, baseline: metric{"BenchmarkModelCalls/uncached", "calls/row"}, maxRatio: 0.1},
	{what: "redact pipeline, sealed (steps/s)", candidate: metric{"BenchmarkPipeline/sealed", "steps/s"}, baseline: metric{"BenchmarkPipeline/plain", "steps/s"}, higherIsBetter: true, maxRatio: 2.0, minAbs: 20000},
}

var line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

// parse collects every value of every metric of every benchmark.
func parse(r io.Reader) (map[string]map[string][]float64, error) {
	out := map[string]map[string][]float64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		fields := strings.Fields(m[2])
		for i := 0; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			if out[m[1]] == nil {
				out[m[1]] = map[string][]float64{}
			}
			out[m[1]][fields[i+1]] = append(out[m[1]][fields[i+1]], v)
		}
	}
	return out, sc.Err()
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func report(w io.Writer, results map[string]map[string][]float64) (failed int) {
	fmt.Fprintf(w, "%-38s %14s %14s %8s  %s\n", "target", "candidate", "baseline", "ratio", "verdict")
	for _, c := range comparisons {
		cand, base := results[c.candidate.bench][c.candidate.unit], results[c.baseline.bench][c.baseline.unit]
		if len(cand) == 0 {
			fmt.Fprintf(w, "%-38s %14s %14s %8s  not measured\n", c.what, "-", "-", "-")
			continue
		}
		cv := median(cand)
		ratio, bv := 0.0, 0.0
		if len(base) > 0 {
			bv = median(base)
			ratio = cv / bv
			if c.higherIsBetter {
				ratio = bv / cv
			}
		}
		verdict := "ok"
		switch {
		case c.maxRatio > 0 && ratio > c.maxRatio:
			verdict = fmt.Sprintf("OVER target %.2fx", c.maxRatio)
			failed++
		case c.maxAbs > 0 && cv > c.maxAbs:
			verdict = fmt.Sprintf("OVER target %s", human(c.maxAbs, c.candidate.unit))
			failed++
		case c.minAbs > 0 && cv < c.minAbs:
			verdict = fmt.Sprintf("UNDER target %s", human(c.minAbs, c.candidate.unit))
			failed++
		case c.maxRatio > 0 && c.minAbs > 0:
			verdict = fmt.Sprintf("ok (target <= %.2fx, >= %s)", c.maxRatio, human(c.minAbs, c.candidate.unit))
		case c.maxRatio > 0:
			verdict = fmt.Sprintf("ok (target <= %.2fx)", c.maxRatio)
		case c.maxAbs > 0:
			verdict = fmt.Sprintf("ok (target <= %s)", human(c.maxAbs, c.candidate.unit))
		}
		fmt.Fprintf(w, "%-38s %14s %14s %7.2fx  %s\n", c.what, human(cv, c.candidate.unit), human(bv, c.candidate.unit), ratio, verdict)
	}
	return failed
}

func human(v float64, unit string) string {
	if unit == "ns/op" {
		return fmt.Sprintf("%.2f ms", v/1e6)
	}
	if strings.HasSuffix(unit, "-ms") {
		return fmt.Sprintf("%.2f ms", v)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func main() {
	results, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(2)
	}
	if report(os.Stdout, results) > 0 {
		os.Exit(1)
	}
}
