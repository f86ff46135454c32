package browser

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
