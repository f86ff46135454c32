package script

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestScriptUnderWine runs the Windows half (wine_windows_test.go) for
// real: a Windows build of these tests in a Wine virtual desktop on Xvfb.
func TestScriptUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./computer/script", "^TestWine")
}
