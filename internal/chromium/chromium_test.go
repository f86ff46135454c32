package chromium

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecutable: the executable named wins; a headless browser without
// the extension is the headless shell where one is installed; a window or
// the extension needs Chromium itself.
func TestExecutable(t *testing.T) {
	dir := t.TempDir()
	full, shell := fakeBinary(t, dir, "chromium"), fakeBinary(t, dir, "chromium-headless-shell")
	defer swap(&Candidates, []string{full})()
	defer swap(&ShellCandidates, []string{shell})()

	for _, tc := range []struct {
		name      string
		o         Options
		want      string
		wantShell bool
	}{
		{"headless", Options{}, shell, true},
		{"window", Options{Show: true}, full, false},
		{"extension", Options{Extension: "/ext"}, full, false},
		{"named", Options{Executable: "/opt/chrome/chrome"}, "/opt/chrome/chrome", false},
		{"named shell", Options{Executable: "/opt/chs/chrome-headless-shell"}, "/opt/chs/chrome-headless-shell", true},
	} {
		bin, isShell, err := executable(tc.o)
		if err != nil || bin != tc.want || isShell != tc.wantShell {
			t.Errorf("%s: executable = %q, shell %v, %v; want %q, shell %v", tc.name, bin, isShell, err, tc.want, tc.wantShell)
		}
	}

	// Without a shell installed, headless is Chromium itself.
	defer swap(&ShellCandidates, []string{filepath.Join(dir, "missing")})()
	if bin, isShell, err := executable(Options{}); err != nil || bin != full || isShell {
		t.Errorf("no shell: executable = %q, shell %v, %v; want %q", bin, isShell, err, full)
	}
	defer swap(&Candidates, []string{filepath.Join(dir, "missing")})()
	if _, _, err := executable(Options{Show: true}); err == nil {
		t.Error("no Chromium at all: executable found one")
	}
}

// TestLaunchRefusesAShellWithAWindow: a headless shell named for a window
// or the extension is refused before anything starts.
func TestLaunchRefusesAShellWithAWindow(t *testing.T) {
	shell := fakeBinary(t, t.TempDir(), "chrome-headless-shell")
	for _, o := range []Options{{Executable: shell, Show: true}, {Executable: shell, Extension: "/ext"}} {
		if _, err := Launch(t.Context(), o); err == nil {
			t.Errorf("Launch(%+v) started a headless shell", o)
		}
	}
}

func fakeBinary(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func swap(v *[]string, to []string) (restore func()) {
	old := *v
	*v = to
	return func() { *v = old }
}

// TestSwitchesKeepTheDisabledFeatures: a caller's --disable-features is
// the last one, which Chromium keeps, so it lists the launch's own too.
func TestSwitchesKeepTheDisabledFeatures(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"none given", nil, "--disable-features=" + disabledFeatures},
		{"one given", []string{"--proxy-server=x", "--disable-features=Translate"}, "--disable-features=" + disabledFeatures + ",Translate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var last string
			for _, a := range switches(Options{Args: tc.args}, false) {
				if strings.HasPrefix(a, "--disable-features=") {
					last = a
				}
			}
			if last != tc.want {
				t.Errorf("the last --disable-features is %q, want %q", last, tc.want)
			}
		})
	}
}
