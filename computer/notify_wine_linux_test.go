package computer

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestTrayUnderWine runs notify_windows_test.go in a Wine desktop.
func TestTrayUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./computer", "^TestWine")
}
