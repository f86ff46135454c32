package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/extension"
)

func TestExtensionPathAndPair(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	out, stderr, err := run(t, home, "extension", "path")
	if err != nil {
		t.Fatalf("extension path: %v\n%s", err, stderr)
	}
	dir := strings.TrimSpace(out)
	var manifest struct {
		Key             string `json:"key"`
		ManifestVersion int    `json:"manifest_version"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil || json.Unmarshal(b, &manifest) != nil {
		t.Fatalf("manifest in %s: %v", dir, err)
	}
	if manifest.Key != extension.PublicKey || manifest.ManifestVersion != 3 {
		t.Fatalf("manifest key or version wrong: %+v", manifest)
	}
	if _, stderr, err := run(t, home, "extension", "pair"); err == nil || !strings.Contains(stderr, "not running") {
		t.Fatalf("pair without a daemon: %v %s", err, stderr)
	}

	startDaemonProcess(t, home)
	out, _, err = run(t, home, "extension", "pair")
	link := strings.TrimSpace(out)
	prefix := extension.Origin + "/pair.html#"
	if err != nil || !strings.HasPrefix(link, prefix) {
		t.Fatalf("pair printed %q, %v", link, err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(link, prefix))
	var creds struct{ URL, User, Password string }
	if err != nil || json.Unmarshal(raw, &creds) != nil || !strings.HasPrefix(creds.URL, "ws://127.0.0.1:") || creds.User != "extension" || creds.Password == "" {
		t.Fatalf("pairing link carries %s (%v)", raw, err)
	}
}
