package quartz

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// The macOS side cannot run here; this proves it compiles and vets for
// both Mac architectures without cgo.
var darwinPkgs = []string{"./capture/quartz/", "./capture/axmac/", "./replay/desktop/"}

func TestDarwinBuildAndVet(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles: slow")
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		if goCmd, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, arch := range []string{"arm64", "amd64"} {
		for _, verb := range []string{"build", "vet"} {
			t.Run(verb+"_"+arch, func(t *testing.T) {
				t.Parallel()
				args := append([]string{verb}, darwinPkgs...)
				if verb == "build" {
					args = append([]string{verb, "-o", os.DevNull}, darwinPkgs...)
				}
				cmd := exec.Command(goCmd, args...)
				cmd.Dir = root
				cmd.Env = append(os.Environ(), "GOOS=darwin", "GOARCH="+arch, "CGO_ENABLED=0")
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("GOOS=darwin GOARCH=%s go %s: %v\n%s", arch, verb, err, out)
				}
			})
		}
	}
}
