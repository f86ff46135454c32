package msaa_test

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestMSAAUnderWine runs the Windows-side tests (msaa_windows_test.go) for
// real: in a Wine virtual desktop on Xvfb, the package's tests cross-built
// for Windows start notepad and ask MSAA about its edit, its title bar and
// menu bar, and about a form of their own with a password field.
func TestMSAAUnderWine(t *testing.T) {
	wine.Runner(t) // skips loudly when scripts/wine has not run
	began := time.Now()
	exe := wine.TestBinary(t, "./capture/msaa")
	x := xvfb.Start(t)
	d := wine.NewDesktop(t, x.Display)
	d.RunTests(t, exe, "^TestWine")
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}
