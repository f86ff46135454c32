package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReplayProfileKeepsNoValues: the profile reprise creates has autofill
// and password saving off, as Chromium itself keeps them after a run, and a
// form filled and submitted there leaves the values it typed nowhere in the
// profile's files. (Headless Chromium was not seen to save them even with
// autofill on; the settings are checked for the visible --show window.)
func TestReplayProfileKeepsNoValues(t *testing.T) {
	_, s := browser(t) // skips loudly without Chromium
	profile := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ex, err := New(ctx, Options{ProfileDir: profile, NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	const typed = "Quokka7731Zebra"
	open(t, ex, s.URL+"/customers/new")
	mustOK(t, ex, step(1, "fill", "First Name", typed, sel("id", "#first_name")))
	mustOK(t, ex, step(2, "fill", "Email", typed+"@example.com", sel("name", "email")))
	mustOK(t, ex, submitStep(3))
	if err := ex.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(profile, "Default", "Preferences"))
	if err != nil {
		t.Fatal(err)
	}
	var prefs struct {
		Autofill struct {
			ProfileEnabled    *bool `json:"profile_enabled"`
			CreditCardEnabled *bool `json:"credit_card_enabled"`
		} `json:"autofill"`
		Profile struct {
			PasswordManagerEnabled *bool `json:"password_manager_enabled"`
		} `json:"profile"`
	}
	if err := json.Unmarshal(b, &prefs); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]*bool{"autofill.profile_enabled": prefs.Autofill.ProfileEnabled,
		"autofill.credit_card_enabled": prefs.Autofill.CreditCardEnabled, "profile.password_manager_enabled": prefs.Profile.PasswordManagerEnabled} {
		if v == nil || *v {
			t.Errorf("the profile's %s after a run is %v; want false", name, v)
		}
	}
	err = filepath.WalkDir(filepath.Join(profile, "Default"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(typed)) {
			t.Errorf("%s holds a value replay typed", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestProfileKeepsALogin: a site's login cookie set in one run is there in
// the next run on the same profile, as a person's browser keeps it.
func TestProfileKeepsALogin(t *testing.T) {
	browser(t)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /login", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret-session", MaxAge: 3600, HttpOnly: true})
		fmt.Fprint(w, `<!doctype html><p>signed in</p>`)
	})
	mux.HandleFunc("GET /account", func(w http.ResponseWriter, r *http.Request) {
		if c, err := r.Cookie("session"); err == nil && c.Value == "s3cret-session" {
			fmt.Fprint(w, `<!doctype html><p>welcome back</p>`)
			return
		}
		fmt.Fprint(w, `<!doctype html><p>please sign in</p>`)
	})
	s := httptest.NewServer(mux)
	defer s.Close()
	profile := t.TempDir()
	for i, path := range []string{"/login", "/account"} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		ex, err := New(ctx, Options{ProfileDir: profile, NoSandbox: true})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		open(t, ex, s.URL+path)
		text := eval[string](t, ex, "document.body.innerText")
		if err := ex.Close(); err != nil {
			t.Fatal(err)
		}
		if want := []string{"signed in", "welcome back"}[i]; !strings.Contains(text, want) {
			t.Errorf("run %d on the profile shows %q; want %q", i+1, text, want)
		}
	}
}
