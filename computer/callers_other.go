//go:build !linux

package computer

import (
	"errors"
	"runtime"
)

// connectedPIDs is not built here yet (Windows: GetExtendedTcpTable's
// owning PIDs; macOS: proc_pidfdinfo).
func connectedPIDs(int) ([]int, error) {
	return nil, errors.New("finding the programs connected to the daemon is not built on " + runtime.GOOS)
}
