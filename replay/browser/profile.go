package browser

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/reprise-dev/reprise/internal/flock"
	"github.com/reprise-dev/reprise/skills"
)

// privatePrefs are the profile settings that keep what replay types out of
// the profile: Chromium's autofill and password manager would otherwise
// store every submitted field value, in plaintext, in "Web Data".
var privatePrefs = map[string]map[string]any{
	"autofill": {"enabled": false, "profile_enabled": false, "credit_card_enabled": false},
	"profile":  {"password_manager_enabled": false},
}

// makeProfilePrivate turns autofill and password saving off in the
// profile's preferences, keeping every other setting (a site's login lives
// in cookies, not here), and removes the autofill store an earlier run or
// a person's use may have left. The profile is a replay profile reprise
// creates; New calls this before every launch.
func makeProfilePrivate(profileDir string) error {
	dir := filepath.Join(profileDir, "Default")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	path := filepath.Join(dir, "Preferences")
	prefs := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &prefs); err != nil {
			prefs = map[string]any{} // Chromium rewrites a broken file itself
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("profile preferences: %w", err)
	}
	for section, kv := range privatePrefs {
		m, _ := prefs[section].(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		for k, v := range kv {
			m[k] = v
		}
		prefs[section] = m
	}
	// Preferences holds "credentials_enable_service" at the top level.
	prefs["credentials_enable_service"] = false
	b, err := json.Marshal(prefs)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return fmt.Errorf("profile preferences: %w", err)
	}
	for _, f := range []string{"Web Data", "Web Data-journal"} {
		if err := os.Remove(filepath.Join(dir, f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("profile: remove the autofill store: %w", err)
		}
	}
	return nil
}

// profileLock is the file in a browser profile whose OS lock a run holds:
// one run at a time per profile, however many reprise processes there are.
const profileLock = "reprise.lock"

// ErrProfileName refuses a profile that is neither a name (letters,
// digits, '-' and '_') nor a folder's path.
var ErrProfileName = errors.New("a profile is a name of letters, digits, '-' and '_' (kept in the data dir), or a folder's path")

// ProfileNameError is ErrProfileName for the profile Name.
type ProfileNameError struct{ Name string }

func (e *ProfileNameError) Error() string {
	return fmt.Sprintf("profile %q: %v", e.Name, ErrProfileName)
}

func (e *ProfileNameError) Unwrap() error { return ErrProfileName }

// ProfileInUseError: another run holds the profile's lock. Profile is the
// profile as it was named ("" for the default), when it is known.
type ProfileInUseError struct{ Profile, Holder string }

func (e *ProfileInUseError) Error() string {
	return fmt.Sprintf("browser profile %s is in use by %s: wait for it to end, or use another profile", cmp.Or(e.Profile, "(the default)"), e.Holder)
}

// ProfileDir is the folder a profile names: a name is kept in the data dir
// home's profiles/, a path is a folder of the person's own; empty is
// fallback in the data dir.
func ProfileDir(home, profile, fallback string) (string, error) {
	switch {
	case profile == "":
		return filepath.Join(home, fallback), nil
	case skills.ValidProfile(profile):
		return filepath.Join(home, "profiles", profile), nil
	case strings.ContainsAny(profile, `/\`):
		return profile, nil
	}
	return "", &ProfileNameError{Name: profile}
}

// HoldNamedProfile resolves profile as ProfileDir does and holds its
// folder for holder ("run run_...") and this process, as HoldProfile.
func HoldNamedProfile(home, profile, fallback, holder string) (dir string, release func(), err error) {
	if dir, err = ProfileDir(home, profile, fallback); err != nil {
		return "", nil, err
	}
	release, err = HoldProfile(dir, fmt.Sprintf("%s (pid %d)", holder, os.Getpid()))
	var inUse *ProfileInUseError
	if errors.As(err, &inUse) {
		inUse.Profile = profile
	}
	return dir, release, err
}

// NoProfileError: a named profile is not in the data dir yet; a person
// makes it by logging in to its site with it on this machine.
type NoProfileError struct{ Name, Dir string }

func (e *NoProfileError) Error() string {
	return fmt.Sprintf("no profile %s in the data dir (%s): log in to its site with it on this machine first", e.Name, e.Dir)
}

// HoldProfiles holds each named profile (checked by skills.ValidProfile)
// for holder: kept in the data dir home, there already. It returns each
// name's folder, and a release of them all.
func HoldProfiles(home string, names []string, holder string) (map[string]string, func(), error) {
	held := map[string]string{}
	var releases []func()
	releaseAll := func() {
		for _, r := range releases {
			r()
		}
	}
	for _, name := range names {
		dir, release, err := holdExisting(home, name, holder)
		if err != nil {
			releaseAll()
			return nil, nil, err
		}
		releases = append(releases, release)
		held[name] = dir
	}
	return held, releaseAll, nil
}

// holdExisting holds the named profile for holder when it is in the data
// dir already.
func holdExisting(home, name, holder string) (string, func(), error) {
	dir, err := ProfileDir(home, name, "")
	if err != nil {
		return "", nil, err
	}
	if _, err := os.Stat(dir); err != nil {
		return "", nil, &NoProfileError{Name: name, Dir: dir}
	}
	return HoldNamedProfile(home, name, "", holder)
}

// HoldProfile makes the profile folder dir and takes its lock for holder
// ("run run_... (pid 12)"). A profile another run holds is refused
// (*ProfileInUseError), naming that run: two browsers on one profile would
// each see the other's pages and logins change under them.
func HoldProfile(dir, holder string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("browser profile: %w", err)
	}
	l, err := flock.Take(filepath.Join(dir, profileLock), holder)
	if errors.Is(err, flock.ErrHeld) {
		return nil, &ProfileInUseError{Holder: strings.TrimPrefix(err.Error(), flock.ErrHeld.Error()+": ")}
	}
	if err != nil {
		return nil, fmt.Errorf("browser profile: %w", err)
	}
	return l.Release, nil
}
