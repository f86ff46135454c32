//go:build !linux

package replay

// cpuTimes is not read off Linux yet: --parallel auto then tells the
// site's answers from this machine's CPU by rows per second alone.
func cpuTimes() (busy, total uint64, ok bool) { return 0, 0, false }
