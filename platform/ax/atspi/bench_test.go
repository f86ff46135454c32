package atspi

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAt looks up the First Name field of the zenity form, as a
// recording does for each click; ms/lookup is the figure to watch, and
// over_budget the share of lookups that took longer than the default
// 200 ms Timeout (and so would have come back without a label or at all).
func BenchmarkAt(b *testing.B) {
	f := startForm(b)
	x, y := centre(f.fields(b)[0])
	ctx := context.Background()
	over := 0
	for b.Loop() {
		start := time.Now()
		e, err := f.e.At(ctx, x, y)
		if err != nil || e == nil || e.Label != "First Name" {
			b.Fatalf("At(%d, %d) = %+v, %v; want First Name", x, y, e, err)
		}
		if time.Since(start) > 200*time.Millisecond {
			over++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/lookup")
	b.ReportMetric(float64(over)/float64(b.N), "over_budget")
}
