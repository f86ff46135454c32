package heal

import (
	"context"
	"testing"
)

// BenchmarkModelCalls is a changed page's rows healed with and without the
// replay cache: model calls per row (the model answers the banner click,
// then the renamed field, for every row it is asked about).
func BenchmarkModelCalls(b *testing.B) {
	for _, cached := range []bool{false, true} {
		name := "uncached"
		if cached {
			name = "cached"
		}
		b.Run(name, func(b *testing.B) {
			e, _, m, sk := setup(b)
			if !cached {
				e.o.Cache = nil
			}
			rows := 0
			for b.Loop() {
				rows++
				m.answers = append(m.answers, `{"action":"click","element":"e1"}`, `{"action":"step","element":"e5"}`)
				out, err := e.Do(context.Background(), step(sk, rows, 1))
				if err != nil || !out.OK {
					b.Fatalf("row %d: %+v, %v", rows, out, err)
				}
			}
			b.ReportMetric(float64(len(m.asked))/float64(rows), "calls/row")
		})
	}
}
