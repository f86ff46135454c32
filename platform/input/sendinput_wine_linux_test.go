package input

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestWindowsInputUnderWine runs the SendInput half for real in a Wine
// virtual desktop on Xvfb (sendinput_windows_test.go).
func TestWindowsInputUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./platform/input", "^TestWindows")
}
