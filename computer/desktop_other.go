//go:build !linux && !windows && !darwin

package computer

import (
	"runtime"

	"github.com/reprise-dev/reprise/ops"
)

// OpenDesktop is not built for this OS yet: listing windows and telling
// secure input are next (EnumWindows with integrity levels on Windows,
// CGWindowList and IsSecureEventInputEnabled on macOS).
func OpenDesktop(string) (Desktop, error) {
	return nil, refuse(ops.CodeComputerPlatformUnsupported, "the computer grants run on Linux (X11) only so far, not on %s", runtime.GOOS)
}

// Parents is not read on this OS yet.
func Parents(int) []int { return nil }

// ownIntegrity: integrity levels are Windows'.
func ownIntegrity() int { return 0 }
