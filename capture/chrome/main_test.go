package chrome_test

import (
	"os"
	"testing"

	"github.com/reprise-dev/reprise/replay/browser"
)

// TestMain lets the daemon's dry-run browser start when the tests run as
// root in a container, as `make test` does, also under a bare `go test`.
func TestMain(m *testing.M) {
	browser.SandboxOffAsRoot()
	os.Exit(m.Run())
}
