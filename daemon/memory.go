package daemon

import (
	"os"
	"runtime/debug"
)

// MemoryLimit is the daemon's soft memory limit unless GOMEMLIMIT says
// otherwise. Left to GOGC alone, the heap grew to twice the live data after
// a big recording was folded, and stayed there; near the limit the
// collector runs sooner instead (it never fails an allocation).
const MemoryLimit = 100 << 20

// LimitMemory sets MemoryLimit for this process, the daemon's, unless
// GOMEMLIMIT sets one.
func LimitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
}
