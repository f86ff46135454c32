package desktop

import (
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/internal/xvfb"
)

// TestWindowsExecutorUnderWine runs the executor's Windows half in a Wine
// virtual desktop on Xvfb (executor_windows_test.go and
// xinput_windows_test.go): SendInput into notepad, read back by
// WM_GETTEXT.
func TestWindowsExecutorUnderWine(t *testing.T) {
	x := xvfb.Start(t)
	d := wine.NewDesktop(t, x.Display)
	d.RunTests(t, wine.TestBinary(t, "./replay/desktop"), "^(TestWine|TestWindows)")
}
