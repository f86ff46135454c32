package daemon

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/reprise-dev/reprise/store"
)

// TestKeyringServicePerDataDir: the person's own data dir keeps the
// service its keys always had; any other data dir has one of its own.
func TestKeyringServicePerDataDir(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("SKIPPED: the default data dir is set through XDG_DATA_HOME here, which only Linux reads")
	}
	base := t.TempDir()
	t.Setenv("XDG_DATA_HOME", base)
	t.Setenv(HomeEnv, "")
	own, err := Home()
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "reprise")
	for _, tc := range []struct{ home, want string }{
		{own, store.KeyringService},
		{own + "/", store.KeyringService},
		{other, store.KeyringService + ":" + other},
	} {
		if got := KeyringService(tc.home); got != tc.want {
			t.Errorf("KeyringService(%q) = %q; want %q", tc.home, got, tc.want)
		}
	}
	if KeyringService(other) == KeyringService(filepath.Join(t.TempDir(), "reprise")) {
		t.Error("two data dirs share a keychain service")
	}
}
