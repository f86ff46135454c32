package browser

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestHoldProfiles: every named profile must be in the data dir already;
// each held is refused to a second holder until released; a miss releases
// the ones held before it.
func TestHoldProfiles(t *testing.T) {
	home := t.TempDir()
	for _, name := range []string{"crm", "erp"} {
		if err := os.MkdirAll(filepath.Join(home, "profiles", name), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := HoldProfiles(home, []string{"crm", "nowhere"}, "worker a"); !errors.As(err, new(*NoProfileError)) {
		t.Fatalf("a profile not in the data dir: %v, want a NoProfileError", err)
	}
	held, release, err := HoldProfiles(home, []string{"crm", "erp"}, "worker a")
	if err != nil {
		t.Fatalf("hold crm and erp (crm was released after the miss): %v", err)
	}
	if want := filepath.Join(home, "profiles", "erp"); held["erp"] != want {
		t.Errorf("erp is held at %q, want %q", held["erp"], want)
	}
	if _, _, err := HoldProfiles(home, []string{"erp"}, "worker b"); !errors.As(err, new(*ProfileInUseError)) {
		t.Errorf("a second holder of erp: %v, want a ProfileInUseError", err)
	}
	release()
	_, again, err := HoldProfiles(home, []string{"erp"}, "worker b")
	if err != nil {
		t.Fatalf("erp after its release: %v", err)
	}
	again()
}
