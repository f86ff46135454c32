package screen

import (
	"syscall"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

func BenchmarkGrab(b *testing.B) {
	d := xvfb.Start(b)
	for _, shm := range []bool{true, false} {
		name := map[bool]string{true: "shm", false: "socket"}[shm]
		b.Run(name, func(b *testing.B) {
			x, err := newX11(d.Display, shm)
			if err != nil {
				b.Fatal(err)
			}
			defer x.Close()
			if x.SHM() != shm {
				b.Fatalf("SHM() = %v; want %v", x.SHM(), shm)
			}
			cpu0 := cpuTime(b)
			for b.Loop() {
				if _, err := x.Grab(); err != nil {
					b.Fatal(err)
				}
			}
			// Wall time includes the X server's copy; CPU time is ours alone.
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/frame")
			b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/1e3/float64(b.N), "cpu-ms/frame")
		})
	}
}

// cpuTime is this process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
