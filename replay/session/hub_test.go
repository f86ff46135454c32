package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reprise-dev/reprise/replay/hub"
)

func TestNewHub(t *testing.T) {
	home := t.TempDir()
	t.Setenv(hub.CredentialsEnv, "user:pass")
	if _, err := NewHub(home, "nats://hub:4222", "", "", false); err == nil {
		t.Fatal("NewHub(no key, create false) = nil error; want the missing key refused (a worker copies it)")
	}
	h, err := NewHub(home, "nats://hub:4222", "", "creds.txt", true)
	if err != nil {
		t.Fatalf("NewHub(create) = %v", err)
	}
	if st, err := os.Stat(filepath.Join(home, "hub.key")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("hub.key in the data dir: %v, %v; want made, mode 0600", st, err)
	}
	want := Hub{URLs: "nats://hub:4222", Key: h.Key, Ledger: filepath.Join(home, "hub-ledger"),
		Credentials: hub.Credentials{File: "creds.txt", Env: "user:pass"}}
	if *h != want {
		t.Errorf("NewHub = %+v; want %+v", *h, want)
	}
	again, err := NewHub(home, "nats://hub:4222", filepath.Join(home, "hub.key"), "", false)
	if err != nil || again.Key.ID() != h.Key.ID() {
		t.Errorf("NewHub(the key file made) = %v; want the same key %s", err, h.Key.ID())
	}
}
