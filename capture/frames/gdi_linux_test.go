package frames

import (
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestGDIUnderWine runs the Windows-side tests (gdi_windows_test.go) for
// real: in a Wine virtual desktop on Xvfb, they start notepad, then grab
// the virtual screen with BitBlt and notepad's window with PrintWindow.
func TestGDIUnderWine(t *testing.T) {
	wine.Runner(t) // skips loudly when scripts/wine has not run
	began := time.Now()
	exe := wine.TestBinary(t, "./capture/frames")
	x := xvfb.Start(t)
	d := wine.NewDesktop(t, x.Display)
	d.RunTests(t, exe, "^TestWineGDI")
	t.Logf("whole test %v", time.Since(began).Round(time.Millisecond))
}
