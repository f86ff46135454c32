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
	candidate string // benchmark name without the -N suffix
	baseline  string
	unit      string
	// higherIsBetter flips the ratio so that above 1 always means slower.
	higherIsBetter bool
	maxRatio       float64 // 0 means report only
	// maxAbs bounds the candidate's own value (0 means none).
	maxAbs float64
}

var comparisons = []comparison{
	{what: "typed publish, sync, p50", candidate: "BenchmarkPublishSync/typed", baseline: "BenchmarkPublishSync/raw", unit: "p50-us", maxRatio: 1.10},
	{what: "typed publish, sync, p99", candidate: "BenchmarkPublishSync/typed", baseline: "BenchmarkPublishSync/raw", unit: "p99-us", maxRatio: 1.10},
	{what: "typed publish, async throughput", candidate: "BenchmarkPublishAsync/typed", baseline: "BenchmarkPublishAsync/raw", unit: "msgs/s", higherIsBetter: true, maxRatio: 1.10},
	{what: "daemon start to ready (warm store)", candidate: "BenchmarkStart/daemon", baseline: "BenchmarkStart/nats-server", unit: "ns/op", maxAbs: 50e6},
	{what: "daemon idle RSS (MB)", candidate: "BenchmarkIdleRSS/daemon", baseline: "BenchmarkIdleRSS/nats-server", unit: "rss-MB", maxAbs: 40},
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
		cand, base := results[c.candidate][c.unit], results[c.baseline][c.unit]
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
			verdict = fmt.Sprintf("OVER target %s %s", human(c.maxAbs, c.unit), c.unit)
			failed++
		case c.maxRatio > 0:
			verdict = fmt.Sprintf("ok (target <= %.2fx)", c.maxRatio)
		case c.maxAbs > 0:
			verdict = fmt.Sprintf("ok (target <= %s)", human(c.maxAbs, c.unit))
		}
		fmt.Fprintf(w, "%-38s %14s %14s %7.2fx  %s\n", c.what, human(cv, c.unit), human(bv, c.unit), ratio, verdict)
	}
	return failed
}

func human(v float64, unit string) string {
	if unit == "ns/op" {
		return fmt.Sprintf("%.2f ms", v/1e6)
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
