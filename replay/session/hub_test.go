package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/skills"
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

// A row's upload files over what a row carries to a hub's workers refuse
// that row alone, before the run, saying so; the others go.
func TestHubFilesLimit(t *testing.T) {
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.pdf"), filepath.Join(dir, "big.pdf")
	if err := os.WriteFile(small, []byte("%PDF small"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, make([]byte, hub.MaxRowFiles+1), 0o600); err != nil {
		t.Fatal(err)
	}
	sk := &skills.Skill{Parameters: []skills.Parameter{{Name: "doc", Column: "Doc", Type: events.ValueFile}}}
	rows := []replay.Row{{N: 1, Values: map[string]string{"doc": small}}, {N: 2, Values: map[string]string{"doc": small + "\n" + big}}, {N: 3, Values: map[string]string{"doc": ""}}}
	keep, refused, err := hubFiles(sk, rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(keep) != 2 || keep[0].N != 1 || keep[1].N != 3 {
		t.Errorf("kept rows %+v; want 1 and 3", keep)
	}
	if len(refused) != 1 || refused[0].N != 2 || refused[0].Outcome != replay.OutcomeFailed || !strings.Contains(refused[0].Reason, "over the 16 MB a row carries") {
		t.Errorf("refused %+v; want row 2, failed, over the limit", refused)
	}
	if _, _, err := hubFiles(sk, []replay.Row{{N: 4, Values: map[string]string{"doc": filepath.Join(dir, "gone.pdf")}}}); err == nil {
		t.Error("a file gone since the rows were read: no error")
	}
}
