package msaa_test

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestMSAAUnderWine runs the Windows-side tests (msaa_windows_test.go) for
// real: in a Wine virtual desktop on Xvfb, the package's tests cross-built
// for Windows start notepad and ask MSAA about its edit, its title bar and
// menu bar, and about a form of their own with a password field.
func TestMSAAUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./platform/ax/msaa", "^TestWine")
}
