package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFileKeyStore(t *testing.T) {
	ks := FileKeyStore{Dir: filepath.Join(t.TempDir(), "keys")}
	if _, err := ks.Get("consent-signing"); !errors.Is(err, ErrKeyNotFound) {
		t.Fatalf("Get(missing) = %v; want ErrKeyNotFound", err)
	}
	calls := 0
	gen := func() ([]byte, error) { calls++; return []byte("k1"), nil }
	k, err := LoadOrCreate(ks, "consent-signing", gen)
	if err != nil || string(k) != "k1" {
		t.Fatalf("LoadOrCreate = %q, %v", k, err)
	}
	if k, _ := LoadOrCreate(ks, "consent-signing", gen); string(k) != "k1" || calls != 1 {
		t.Fatalf("second LoadOrCreate = %q after %d generations; want the stored key, generated once", k, calls)
	}
	fi, err := os.Stat(filepath.Join(ks.Dir, "consent-signing.key"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	if di, _ := os.Stat(ks.Dir); di.Mode().Perm() != 0o700 {
		t.Errorf("key dir mode %v; want 0700", di.Mode().Perm())
	}
	if err := ks.Delete("consent-signing"); err != nil {
		t.Fatal(err)
	}
	if err := ks.Delete("consent-signing"); err != nil {
		t.Fatalf("second Delete = %v; want nil", err)
	}
	if _, err := ks.Get("consent-signing"); !errors.Is(err, ErrKeyNotFound) {
		t.Fatalf("Get after Delete = %v; want ErrKeyNotFound", err)
	}
	for _, bad := range []string{"", "../etc/passwd", "a/b", "UPPER", ".hidden"} {
		if err := ks.Put(bad, []byte("x")); err == nil {
			t.Errorf("Put(%q) succeeded; want a name error", bad)
		}
	}
}

func TestFileKeyStoreConformance(t *testing.T) {
	testKeyStore(t, FileKeyStore{Dir: filepath.Join(t.TempDir(), "keys")})
}
