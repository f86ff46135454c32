package desktop

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// TestWindowsExecutorUnderWine runs the executor's Windows half in a Wine
// virtual desktop on Xvfb (executor_windows_test.go): SendInput into
// notepad, read back by WM_GETTEXT.
func TestWindowsExecutorUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./replay/desktop", "^(TestWine|TestWindows)")
}
