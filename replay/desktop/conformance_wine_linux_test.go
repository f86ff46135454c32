package desktop

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/internal/wine"
)

// What the Windows side reads (conformance_windows_test.go).
const (
	formEnv    = "REPRISE_SELECTOR_FORM"
	uiaFakeEnv = "REPRISE_UIA_FAKE_DLL"
)

// TestSelectorsUnderWine runs the selector conformance suite on the Win32
// form (internal/wine/selform) in a Wine virtual desktop on Xvfb
// (conformance_windows_test.go): through MSAA, Wine's own oleacc; and
// through the UIA client's List against the fake UIA server
// (platform/ax/uia/testdata/fakeuia), which serves the form's real windows,
// because Wine 8 has no UI Automation client.
func TestSelectorsUnderWine(t *testing.T) {
	wine.Runner(t) // skips loudly when scripts/wine has not run
	gcc, err := exec.LookPath("x86_64-w64-mingw32-gcc")
	if err != nil {
		t.Skip("SKIPPED: no mingw compiler for the fake UIA server: run scripts/wine (it installs gcc-mingw-w64-x86-64-win32)")
	}
	dll := filepath.Join(t.TempDir(), "fakeuia.dll")
	src := filepath.Join(wine.Root(t), "platform/ax/uia/testdata/fakeuia/fakeuia.c")
	if out, err := exec.Command(gcc, "-O1", "-Wall", "-shared", "-o", dll, src, "-loleaut32").CombinedOutput(); err != nil {
		t.Fatalf("build the fake UIA server: %v\n%s", err, out)
	}
	t.Setenv(formEnv, wine.WinPath(wine.Build(t, "./internal/wine/selform")))
	t.Setenv(uiaFakeEnv, wine.WinPath(dll))
	wine.RunWindowsTests(t, "./replay/desktop", "^TestSelectors(MSAA|UIA)$")
}
