package frames

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/screen"
)

func BenchmarkIdleRing(b *testing.B) {
	d := xvfb.Start(b)
	for _, shm := range []bool{true, false} {
		name := map[bool]string{true: "shm", false: "socket"}[shm]
		b.Run(name, func(b *testing.B) {
			x, err := screen.NewX11(d.Display)
			if !shm {
				x, err = screen.NewX11Socket(d.Display)
			}
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			const window = 4 * time.Second
			var pct float64
			var st Stats
			for range b.N {
				r := NewRing(x, RingOptions{Rate: 2})
				r.Start(context.Background())
				for r.Stats().Stored == 0 { // the first grab stores; the rest repeat it
					time.Sleep(10 * time.Millisecond)
				}
				runtime.GC()
				cpu0, wall0 := cpuTime(b), time.Now()
				time.Sleep(window)
				cpu1, wall := cpuTime(b), time.Since(wall0)
				st = r.Stats()
				r.Stop()
				pct = float64(cpu1-cpu0) / float64(wall) * 100
			}
			b.ReportMetric(pct, "%cpu")
			b.ReportMetric(float64(st.Deduped), "deduped")
			b.ReportMetric(float64(st.LastGrab.Microseconds())/1e3, "ms/grab")
			if st.Stored != 1 {
				b.Errorf("Stats().Stored = %d over an unchanged screen; want 1", st.Stored)
			}
		})
	}
}

// cpuTime is this process's user and system time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
