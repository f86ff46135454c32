package main

import (
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkPublishSync-2     	   10000	     30000 ns/op	        28.0 raw-p50-us	        29.0 typed-p50-us	        80.0 raw-p99-us	        95.0 typed-p99-us
BenchmarkPublishAsync/raw-2    	  100000	      9000 ns/op	    110000 msgs/s
BenchmarkPublishAsync/typed-2  	  100000	      9500 ns/op	    100000 msgs/s
BenchmarkStart/nats-server-2   	      50	   6000000 ns/op
BenchmarkStart/daemon-2        	      50	  12000000 ns/op
garbage line
BenchmarkIdleRSS/daemon-2      	       1	 2000000000 ns/op	        31.5 rss-MB
`

func TestReport(t *testing.T) {
	results, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := results["BenchmarkPublishSync"]["typed-p99-us"]; len(got) != 1 || got[0] != 95 {
		t.Fatalf("parse p99 = %v; want [95]", got)
	}
	var out strings.Builder
	failed := report(&out, results)
	// p99 is 95/80 = 1.19x, over the 1.10x target; everything else is within.
	if failed != 1 || !strings.Contains(out.String(), "1.19x  OVER") {
		t.Fatalf("report failed=%d:\n%s", failed, out.String())
	}
	if !strings.Contains(out.String(), "1.10x  ok") { // async: 110000/100000
		t.Errorf("async ratio missing:\n%s", out.String())
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v; want %v", tc.in, got, tc.want)
		}
	}
}
