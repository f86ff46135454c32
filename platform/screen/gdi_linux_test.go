package screen

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestGDIUnderWine runs the Windows-side tests (gdi_windows_test.go) for
// real: in a Wine virtual desktop on Xvfb, they start notepad, then grab
// the virtual screen with BitBlt and notepad's window with PrintWindow.
func TestGDIUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./platform/screen", "^TestWineGDI")
}
