package store

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"strings"
	"testing"
)

const testRec = "rec_0a1b2c3d-0000-4000-8000-000000000001"

func newTestSealer(t testing.TB, recID string) (*Sealer, []byte) {
	t.Helper()
	key, err := NewDataKey()
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSealer(key, recID)
	if err != nil {
		t.Fatal(err)
	}
	return s, key
}

func TestAEADIsXChaCha20Poly1305(t *testing.T) {
	a, err := NewAEAD(make([]byte, DataKeySize))
	if err != nil {
		t.Fatal(err)
	}
	var _ cipher.AEAD = a
	if a.NonceSize() != 24 || a.Overhead() != 16 {
		t.Fatalf("NonceSize, Overhead = %d, %d; want 24, 16", a.NonceSize(), a.Overhead())
	}
	nonce := make([]byte, 24)
	if _, err := a.Open(nil, nonce, make([]byte, 20), nil); err != ErrNotAuthentic {
		t.Fatalf("Open(garbage) = %v; want ErrNotAuthentic", err)
	}
}

func TestSealerRoundTrip(t *testing.T) {
	s, _ := newTestSealer(t, testRec)
	for _, tc := range []struct {
		kind string
		seq  uint64
		size int
	}{
		{"step", 0, 0},
		{"step", 1, 1},
		{"step", 42, 500},
		{"frame", 7, 200 << 10},
		{"event", 1<<64 - 1, 64},
		{"", 3, 10},
	} {
		pt := bytes.Repeat([]byte{0xa5}, tc.size)
		sealed := s.Seal(tc.seq, tc.kind, pt)
		if len(sealed) != tc.size+24+16 {
			t.Errorf("len(Seal(%d, %q, %d bytes)) = %d; want %d", tc.seq, tc.kind, tc.size, len(sealed), tc.size+40)
		}
		if tc.size >= 16 && bytes.Contains(sealed, pt) {
			t.Errorf("Seal(%d, %q) output contains the plaintext", tc.seq, tc.kind)
		}
		got, err := s.Open(tc.seq, tc.kind, sealed)
		if err != nil || !bytes.Equal(got, pt) {
			t.Errorf("Open(Seal(%d, %q, %d bytes)) = %d bytes, %v; want the plaintext", tc.seq, tc.kind, tc.size, len(got), err)
		}
	}
}

// A sealed message only opens where it was sealed: same key, recording,
// position and kind, every byte intact.
func TestSealerRejects(t *testing.T) {
	s, key := newTestSealer(t, testRec)
	secret := "hunter2-card-4111111111111111"
	sealed := s.Seal(5, "step", []byte(secret))

	other, _ := NewSealer(key, "rec_0a1b2c3d-0000-4000-8000-000000000002")
	prefix, _ := NewSealer(key, testRec[:len(testRec)-1])
	wrongKey, _ := newTestSealer(t, testRec)
	cut := func(n int) []byte { return sealed[:n] }
	flip := func(i int) []byte {
		b := bytes.Clone(sealed)
		b[i] ^= 0x01
		return b
	}
	for _, tc := range []struct {
		name   string
		s      *Sealer
		seq    uint64
		kind   string
		sealed []byte
	}{
		{"other recording", other, 5, "step", sealed},
		{"recording id prefix", prefix, 5, "step", sealed},
		{"other seq", s, 6, "step", sealed},
		{"seq 0", s, 0, "step", sealed},
		{"other kind", s, 5, "frame", sealed},
		{"kind prefix", s, 5, "ste", sealed},
		{"wrong key", wrongKey, 5, "step", sealed},
		{"nonce byte flipped", s, 5, "step", flip(0)},
		{"ciphertext byte flipped", s, 5, "step", flip(30)},
		{"tag byte flipped", s, 5, "step", flip(len(sealed) - 1)},
		{"last byte cut", s, 5, "step", cut(len(sealed) - 1)},
		{"tag only", s, 5, "step", sealed[24:]},
		{"shorter than nonce and tag", s, 5, "step", cut(39)},
		{"empty", s, 5, "step", nil},
		{"byte appended", s, 5, "step", append(bytes.Clone(sealed), 0)},
	} {
		got, err := tc.s.Open(tc.seq, tc.kind, tc.sealed)
		if !errors.Is(err, ErrNotAuthentic) || got != nil {
			t.Errorf("%s: Open = %q, %v; want nil, ErrNotAuthentic", tc.name, got, err)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, secret) || strings.Contains(msg, fmt.Sprintf("%x", key)) {
			t.Errorf("%s: error %q carries the plaintext or the key", tc.name, msg)
		}
	}

	// Every single-byte change and every truncation fails.
	for i := range sealed {
		if _, err := s.Open(5, "step", flip(i)); err == nil {
			t.Fatalf("Open with byte %d flipped succeeded", i)
		}
	}
	for n := range len(sealed) {
		if _, err := s.Open(5, "step", cut(n)); err == nil {
			t.Fatalf("Open of the first %d of %d bytes succeeded", n, len(sealed))
		}
	}
}

func TestSealerFreshNonces(t *testing.T) {
	s, _ := newTestSealer(t, testRec)
	seen := make(map[string]bool)
	for i := range 10000 {
		sealed := s.Seal(1, "step", []byte("same plaintext"))
		nonce := string(sealed[:24])
		if seen[nonce] {
			t.Fatalf("seal %d reused a nonce", i)
		}
		seen[nonce] = true
	}
}

func TestNewSealerErrors(t *testing.T) {
	key := bytes.Repeat([]byte{0x42}, 64)
	for _, tc := range []struct {
		name  string
		key   []byte
		recID string
	}{
		{"no key", nil, testRec},
		{"short key", key[:16], testRec},
		{"long key", key[:33], testRec},
		{"empty recording id", key[:32], ""},
	} {
		s, err := NewSealer(tc.key, tc.recID)
		if err == nil {
			t.Errorf("%s: NewSealer = %v, nil; want an error", tc.name, s)
			continue
		}
		if strings.Contains(err.Error(), "4242") || strings.Contains(err.Error(), "BBBB") {
			t.Errorf("%s: error %q carries key bytes", tc.name, err)
		}
	}
	k1, _ := NewDataKey()
	k2, _ := NewDataKey()
	if len(k1) != 32 || bytes.Equal(k1, k2) {
		t.Fatalf("NewDataKey gave %d bytes, twice the same: %v; want 32 fresh random bytes", len(k1), bytes.Equal(k1, k2))
	}
}

// FuzzSealerOpen: no input opens without the key, and none panics.
func FuzzSealerOpen(f *testing.F) {
	s, _ := newTestSealer(f, testRec)
	f.Add(uint64(1), "step", s.Seal(1, "step", []byte("seed")))
	f.Add(uint64(0), "frame", []byte{})
	f.Fuzz(func(t *testing.T, seq uint64, kind string, sealed []byte) {
		fresh, _ := newTestSealer(t, testRec)
		if pt, err := fresh.Open(seq, kind, sealed); err == nil {
			t.Fatalf("Open(%d, %q, %x) = %q under a fresh key; want an error", seq, kind, sealed, pt)
		}
	})
}

func BenchmarkSealer(b *testing.B) {
	s, _ := newTestSealer(b, testRec)
	for _, bc := range []struct {
		name, kind string
		size       int
	}{
		{"step-500B", "step", 500},
		{"frame-200KB", "frame", 200 << 10},
	} {
		pt := bytes.Repeat([]byte{'x'}, bc.size)
		sealed := s.Seal(1, bc.kind, pt)
		b.Run("Seal/"+bc.name, func(b *testing.B) {
			b.SetBytes(int64(bc.size))
			b.ReportAllocs()
			for b.Loop() {
				s.Seal(1, bc.kind, pt)
			}
		})
		b.Run("Open/"+bc.name, func(b *testing.B) {
			b.SetBytes(int64(bc.size))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Open(1, bc.kind, sealed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
