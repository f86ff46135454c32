package browser

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileDirAndHold(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct{ profile, want string }{
		{"", filepath.Join(home, "browser-profile")},
		{"expenses", filepath.Join(home, "profiles", "expenses")},
		{"/some/folder", "/some/folder"},
	} {
		if got, err := ProfileDir(home, tc.profile, "browser-profile"); err != nil || got != tc.want {
			t.Errorf("ProfileDir(%q) = %q, %v; want %q", tc.profile, got, err, tc.want)
		}
	}
	if _, err := ProfileDir(home, "no good", "browser-profile"); !errors.Is(err, ErrProfileName) {
		t.Errorf("ProfileDir(a bad name) = %v; want ErrProfileName", err)
	}
	dir := filepath.Join(home, "p")
	release, err := HoldProfile(dir, "run a (pid 1)")
	if err != nil {
		t.Fatal(err)
	}
	var inUse *ProfileInUseError
	if _, err := HoldProfile(dir, "run b (pid 2)"); !errors.As(err, &inUse) || inUse.Holder != "run a (pid 1)" {
		t.Errorf("HoldProfile(held) = %v; want a *ProfileInUseError naming run a", err)
	}
	release()
	if release, err = HoldProfile(dir, "run b (pid 2)"); err != nil {
		t.Errorf("HoldProfile(released) = %v", err)
	} else {
		release()
	}
	held, release, err := HoldNamedProfile(home, "expenses", "browser-profile", "run a")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, _, err := HoldNamedProfile(home, "expenses", "browser-profile", "run b"); !errors.As(err, &inUse) || inUse.Profile != "expenses" ||
		!strings.HasPrefix(inUse.Holder, "run a (pid ") || !strings.Contains(err.Error(), "browser profile expenses is in use by run a") {
		t.Errorf("HoldNamedProfile(held, as %s) = %v; want a *ProfileInUseError naming the profile and run a", held, err)
	}
	var bad *ProfileNameError
	if _, _, err := HoldNamedProfile(home, "no good", "browser-profile", "run a"); !errors.As(err, &bad) || bad.Name != "no good" {
		t.Errorf("HoldNamedProfile(a bad name) = %v; want a *ProfileNameError", err)
	}
}
