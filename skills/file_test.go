package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, MaxDocument+1), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nname: x\nsteps: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, doc, err := ReadFile(filepath.Join("testdata", "parse", "minimal.yaml"))
	if err != nil || s.Name != "open the dashboard" || !strings.HasPrefix(string(doc), "version: 1\n") {
		t.Fatalf("ReadFile(minimal.yaml) = %v, %d bytes, %v; want the skill and its document", s, len(doc), err)
	}
	for _, tt := range []struct{ path, want string }{
		{big, "is over"},
		{bad, bad + ": line"},
		{filepath.Join(dir, "none.yaml"), "no such file"},
	} {
		if _, _, err := ReadFile(tt.path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ReadFile(%q) = %v; want an error saying %q", tt.path, err, tt.want)
		}
	}
}
