package store

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// testKeyStore is the conformance suite every KeyStore runs. It leaves no
// keys behind.
func testKeyStore(t *testing.T, ks KeyStore) {
	t.Helper()
	names := []string{ConsentSigningKey, AuditChainKey, DataKeyName("rec_suite-0"), DataKeyName("rec_suite-1")}
	t.Cleanup(func() {
		for _, n := range names {
			_ = ks.Delete(n)
		}
	})
	for _, n := range names {
		_ = ks.Delete(n)
		if _, err := ks.Get(n); !errors.Is(err, ErrKeyNotFound) {
			t.Fatalf("Get(%q) of a missing key = %v; want ErrKeyNotFound", n, err)
		}
	}

	// Every byte value survives, and each name is its own item.
	keys := make([][]byte, len(names))
	for i, n := range names {
		keys[i] = bytes.Repeat([]byte{0x00, 0xff, byte(i), '\n'}, 8)
		if err := ks.Put(n, keys[i]); err != nil {
			t.Fatalf("Put(%q) = %v", n, err)
		}
	}
	for i, n := range names {
		if got, err := ks.Get(n); err != nil || !bytes.Equal(got, keys[i]) {
			t.Fatalf("Get(%q) = %x, %v; want %x", n, got, err, keys[i])
		}
	}

	// Put replaces.
	if err := ks.Put(names[0], []byte("replaced")); err != nil {
		t.Fatalf("second Put(%q) = %v", names[0], err)
	}
	if got, err := ks.Get(names[0]); err != nil || string(got) != "replaced" {
		t.Fatalf("Get(%q) after replacing = %q, %v; want %q", names[0], got, err, "replaced")
	}

	// Delete removes one item, twice is fine, the others stay.
	for range 2 {
		if err := ks.Delete(names[2]); err != nil {
			t.Fatalf("Delete(%q) = %v; want nil", names[2], err)
		}
	}
	if _, err := ks.Get(names[2]); !errors.Is(err, ErrKeyNotFound) {
		t.Fatalf("Get(%q) after Delete = %v; want ErrKeyNotFound", names[2], err)
	}
	if got, err := ks.Get(names[3]); err != nil || !bytes.Equal(got, keys[3]) {
		t.Fatalf("Get(%q) after deleting %q = %x, %v; want it untouched", names[3], names[2], got, err)
	}

	// LoadOrCreate generates once, then loads.
	calls := 0
	gen := func() ([]byte, error) { calls++; return []byte("generated"), nil }
	for range 2 {
		if k, err := LoadOrCreate(ks, names[2], gen); err != nil || string(k) != "generated" {
			t.Fatalf("LoadOrCreate(%q) = %q, %v; want %q", names[2], k, err, "generated")
		}
	}
	if calls != 1 {
		t.Fatalf("LoadOrCreate generated %d times; want once", calls)
	}

	for _, bad := range []string{"", "../etc/passwd", "a/b", "UPPER", ".hidden", "a b"} {
		if err := ks.Put(bad, []byte("x")); err == nil {
			t.Errorf("Put(%q) succeeded; want a name error", bad)
		}
		if _, err := ks.Get(bad); err == nil || errors.Is(err, ErrKeyNotFound) {
			t.Errorf("Get(%q) = %v; want a name error", bad, err)
		}
	}

	// Safe for concurrent use.
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 8 {
		name := DataKeyName(fmt.Sprintf("rec_suite-c%d", i))
		names = append(names, name)
		wg.Go(func() {
			want := []byte(name)
			if err := ks.Put(name, want); err != nil {
				errs <- err
				return
			}
			if got, err := ks.Get(name); err != nil || !bytes.Equal(got, want) {
				errs <- fmt.Errorf("concurrent Get(%q) = %q, %v; want %q", name, got, err, want)
				return
			}
			if err := ks.Delete(name); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
